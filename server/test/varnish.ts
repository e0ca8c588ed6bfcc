/**
 * Varnish in front of the storefront for tests and the benchmark (`scripts/varnish-lib.mjs`, which `npm run varnish`
 * runs), typed. Nothing here imports the test runner.
 */
import type { ChildProcess } from 'node:child_process';

export interface Varnish {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** varnishd's `-n` folder (varnishstat -n, varnishlog -n). */
  workDir: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL; removes the work folder. */
  stop(): Promise<void>;
  /** varnishstat's counters by name (`MAIN.cache_hit`). */
  stats(): Promise<Record<string, number>>;
}

export interface VarnishOptions {
  varnishd?: string;
  /** `HOST:PORT` of each storefront node (several: checked on `/readyz` and taken in turn). */
  backends: string[];
  /** `HOST:PORT` to answer on. */
  listen: string;
  storage?: string;
  purgers?: string[];
  /** varnishd `-p name=value` parameters. */
  params?: string[];
  output?: (text: string) => void;
}

const lib = (await import(new URL('../../scripts/varnish-lib.mjs', import.meta.url).href)) as {
  findVarnishd(): string | null;
  haveXkey(varnishd: string): boolean;
  startVarnish(options: VarnishOptions): Promise<Varnish>;
};

/** The varnishd the tests use (`VARNISHD`, else an installed one) when it has xkey beside it, else null. */
export function varnishdForTests(): string | null {
  const varnishd = lib.findVarnishd();
  return varnishd && lib.haveXkey(varnishd) ? varnishd : null;
}

export const startVarnish: (options: VarnishOptions) => Promise<Varnish> = lib.startVarnish;
