import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addressWithoutTracking, trackingParamPattern } from '../../shared/rules/tracking-params.js';
import { INCOMING_ID } from '../http/logger.js';

/** `scripts/varnish-lib.mjs` (plain JavaScript, as `npm run varnish` runs it), typed. */
const varnishLib = (await import(new URL('../../scripts/varnish-lib.mjs', import.meta.url).href)) as {
  STOREFRONT_VCL: string;
  findVarnishd(): string | null;
  compileVcl(varnishd: string, source: string): string | null;
  wrapperVcl(options: { backends: string[]; purgers?: string[] }): string;
};

const vcl = readFileSync(varnishLib.STOREFRONT_VCL, 'utf8');

/** The `set req.url = regsub(...)`/`regsuball(...)` lines of vcl_recv, in order, as JavaScript replacements. */
function urlRewrites(): ((url: string) => string)[] {
  const found = [...vcl.matchAll(/set req\.url = (regsuball|regsub)\(req\.url, "([^"]*)", "([^"]*)"\);/g)];
  return found.map(([, fn, pattern, replacement]) => {
    const caseless = pattern!.startsWith('(?i)');
    const re = new RegExp(
      caseless ? pattern!.slice(4) : pattern!,
      `${caseless ? 'i' : ''}${fn === 'regsuball' ? 'g' : ''}`,
    );
    return (url) => url.replace(re, replacement!.replace(/\\(\d)/g, '$$$1'));
  });
}

describe('deploy/varnish/storefront.vcl', () => {
  it('strips the tracking parameters with the pattern generated from shared/rules/tracking-params.ts', () => {
    const line = `regsuball(req.url, "(?i)([?&])${trackingParamPattern()}(?=&|$)", "\\1")`;
    expect(vcl.includes(line), `storefront.vcl must hold, as generated from the list:\n  ${line}`).toBe(true);
  });

  it('takes a client’s request id by the pattern the server takes one by', () => {
    const line = `if (req.http.X-Request-Id !~ "${INCOMING_ID.source}") {`;
    expect(vcl.includes(line), `storefront.vcl must hold, as server/http/logger.ts has it:\n  ${line}`).toBe(true);
  });

  it('leaves the same address as the server does once the tracking parameters are out', () => {
    const rewrites = urlRewrites();
    expect(rewrites.length).toBeGreaterThanOrEqual(2);
    const strip = (url: string) => rewrites.reduce((u, rewrite) => rewrite(u), url);
    for (const url of [
      '/',
      '/?utm_source=mail&utm_content=4711',
      '/?UTM_Source=x',
      '/category/nfl?utm_medium=cpc&zip=10001&gclid=abc',
      '/events/1?a=1&fbclid=x&b=2&_ga=1.2&c',
      '/results-general?kwds=utm_source&utm_source=kwds',
      '/?gclidx=1&xgclid=2&utm_',
      '/?a=1&&utm_term=&b=2',
      '/performers/x?msclkid=1',
    ]) {
      expect(strip(url), url).toBe(addressWithoutTracking(url));
    }
  });

  it('keys pages on the place and the variation, and only the pages that read them', () => {
    expect(vcl).toMatch(/cookie\.keep\("shopperLocation,homeLayout"\)/);
    expect(vcl).toMatch(/hash_data\("shopperLocation=" \+ cookie\.get\("shopperLocation"\)\)/);
    expect(vcl).toMatch(/hash_data\("homeLayout=" \+ cookie\.get\("homeLayout"\)\)/);
  });

  it.skipIf(!varnishLib.findVarnishd())('compiles with varnishd, behind the wrapper npm run varnish writes', () => {
    for (const backends of [['127.0.0.1:3000'], ['127.0.0.1:3001', '10.0.0.12:3000', '[::1]:3003']]) {
      const problem = varnishLib.compileVcl(
        varnishLib.findVarnishd()!,
        varnishLib.wrapperVcl({ backends, purgers: ['10.0.0.0/8'] }),
      );
      expect(problem, backends.join(' ')).toBeNull();
    }
  });

  it('checks several nodes on /readyz and takes them in turn; one node is the backend itself, unchecked', () => {
    const one = varnishLib.wrapperVcl({ backends: ['127.0.0.1:3000'] });
    expect(one).toMatch(/backend storefront \{\s+\.host = "127\.0\.0\.1";\s+\.port = "3000";/);
    expect(one).not.toMatch(/probe|directors/);
    const three = varnishLib.wrapperVcl({ backends: ['10.0.0.11:3000', '10.0.0.12:3000', '10.0.0.13:3000'] });
    // RULES 13.8: every second, two to answer, out after two failed checks of three, back after two good ones.
    const probe = /probe storefront_ready \{([^}]*)\}/.exec(three)?.[1]?.replace(/\s+/g, ' ').trim();
    expect(probe).toBe('.url = "/readyz"; .timeout = 2s; .interval = 1s; .window = 3; .threshold = 2; .initial = 2;');
    expect(three.match(/\.probe = storefront_ready;/g)).toHaveLength(3);
    expect(three).toMatch(/new storefront = directors\.round_robin\(\);/);
    for (const n of [1, 2, 3]) {
      expect(three).toContain(`.host = "10.0.0.1${n}";`);
      expect(three).toContain(`storefront.add_backend(storefront_${n});`);
    }
    // Before the rules' own vcl_recv, so that theirs runs with the node chosen.
    expect(three.indexOf('set req.backend_hint = storefront.backend();')).toBeLessThan(three.indexOf('include '));
    expect(() => varnishLib.wrapperVcl({ backends: [] })).toThrow(/at least one --backend/);
  });
});

describe('npm run varnish (scripts/varnish.mjs)', () => {
  const script = fileURLToPath(new URL('../../scripts/varnish.mjs', import.meta.url));

  it('says how to install Varnish when varnishd is missing', () => {
    const run = spawnSync(process.execPath, [script], { env: { ...process.env, VARNISHD: '/nonexistent/varnishd' } });
    expect(run.status).toBe(1);
    expect(run.stderr.toString()).toMatch(/apt-get install -y --no-install-recommends varnish varnish-modules/);
  });

  it('names the option that is not HOST:PORT, among several nodes too', () => {
    for (const args of [
      ['--backend', 'storefront'],
      ['--backend', '127.0.0.1:3000', '--backend', 'storefront'],
    ]) {
      const run = spawnSync(process.execPath, [script, ...args]);
      expect(run.status).toBe(2);
      expect(run.stderr.toString()).toMatch(/--backend must be HOST:PORT.*"storefront"/);
    }
  });
});
