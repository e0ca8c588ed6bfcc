/**
 * Storefront server nodes (`node --import tsx server/main.ts`) on loopback for tests and the fault benchmark,
 * each stopped by its own process id. Nothing here imports the test runner, so the benchmark uses it as well.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerNode {
  name: string;
  pid: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every line the process wrote on stdout, in order. */
  lines: string[];
  /** Every line it wrote on stderr. */
  errors: string[];
  /** Set when the process has ended. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The stdout lines that are pino JSON records, parsed. */
  records(): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL when it is still running after `NODE_STOP_GRACE_MS`. */
  stop(): Promise<void>;
}

/** More than any test writes; a runaway logger cannot exhaust the runner's memory. */
const MAX_LINES = 500_000;
/** How long a node may take to print its URL and answer /readyz 200. */
const NODE_READY_MS = 90_000;
/** How long a node told to stop (SIGTERM) gets before it is killed. */
const NODE_STOP_GRACE_MS = 5_000;

/**
 * The nodes still running, killed should the process that started them end first (a test worker torn down while a
 * hook still waits on them): no node outlives its test run.
 */
const running = new Set<number>();
process.on('exit', () => {
  for (const pid of running) signal(pid, 'SIGKILL');
});

function spawnNode(name: string, env: Record<string, string>): ServerNode {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SEGMENTS_WATCH: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${name}: the server process did not start`);
  const pid = proc.pid;
  running.add(pid);
  const lines: string[] = [];
  const errors: string[] = [];
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line && into.length < MAX_LINES) into.push(line);
    };
  };
  proc.stdout!.on('data', collect(lines));
  proc.stderr!.on('data', collect(errors));
  const node: ServerNode = {
    name,
    pid: proc.pid,
    url: '',
    lines,
    errors,
    exit: null,
    exited: new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        running.delete(pid);
        node.exit = { code, signal };
        resolve(node.exit);
      });
    }),
    records: () =>
      lines.flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    stop: async () => {
      if (node.exit) return;
      signal(node.pid, 'SIGTERM');
      const timer = setTimeout(() => signal(node.pid, 'SIGKILL'), NODE_STOP_GRACE_MS);
      await node.exited;
      clearTimeout(timer);
    },
  };
  return node;
}

function signal(pid: number, sig: NodeJS.Signals) {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

const tail = (node: ServerNode) => [...node.lines.slice(-15), ...node.errors.slice(-15)].join('\n');

async function untilReady(node: ServerNode): Promise<void> {
  const deadline = Date.now() + NODE_READY_MS;
  while (Date.now() < deadline) {
    if (node.exit)
      throw new Error(
        `${node.name} exited (${node.exit.code ?? node.exit.signal}) before it was ready:\n${tail(node)}`,
      );
    if (!node.url) {
      const line = node.lines.find((l) => l.startsWith('Storefront running at '));
      const match = line ? /(http:\/\/127\.0\.0\.1:\d+)/.exec(line) : null;
      if (match) node.url = match[1]!;
    }
    if (node.url) {
      const status = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
    }
    await sleep(100);
  }
  throw new Error(`${node.name} was not ready within ${NODE_READY_MS} ms:\n${tail(node)}`);
}

/**
 * Starts `count` server nodes at once with the same environment, and resolves when every one answers
 * /readyz 200. Should one fail, those already started are stopped before the error is thrown.
 */
export async function startNodes(count: number, env: Record<string, string>): Promise<ServerNode[]> {
  const nodes = Array.from({ length: count }, (_, i) => spawnNode(`node ${String.fromCharCode(65 + i)}`, env));
  try {
    await Promise.all(nodes.map(untilReady));
  } catch (err) {
    await stopNodes(nodes);
    throw err;
  }
  return nodes;
}

export async function stopNodes(nodes: readonly ServerNode[]): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop()));
}
