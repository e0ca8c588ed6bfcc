import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const tmpDirs: string[] = [];
afterAll(() => Promise.all(tmpDirs.map((d) => rm(d, { recursive: true, force: true }))));

function startServer(env: Record<string, string>) {
  // In-process tsx: the tsx launcher would relay signals through a second process.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, ms = 60_000) => {
    const until = Date.now() + ms;
    while (!pattern.test(out)) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${pattern}; output:\n${out}\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return pattern.exec(out)!;
  };
  return { child, exited, waitFor, output: () => out, errors: () => err };
}

describe('the server process', () => {
  it('generates a catalog when absent, becomes ready, and exits cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'main-test-'));
    tmpDirs.push(dataDir);
    const server = startServer({ DATA_DIR: dataDir, CATALOG_EVENTS: '400' });
    const [, url] = await server.waitFor(/Storefront running at (http:\/\/\S+)/);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    // Idle connections are held past the 60 s clients and balancers commonly keep theirs.
    expect(health.headers.get('keep-alive')).toBe('timeout=65');
    await server.waitFor(/"msg":"search ready"/);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
  });

  it('refuses to start on a bad environment, listing every problem', async () => {
    const server = startServer({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(await server.exited).toBe(1);
    expect(server.errors()).toMatch(/PORT:/);
    expect(server.errors()).toMatch(/LOG_LEVEL:/);
  });

  it('says in one line on stderr that its port is taken, and exits 1 without a stack', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'main-test-'));
    tmpDirs.push(dataDir);
    try {
      const server = startServer({
        PORT: String(port),
        DATA_DIR: dataDir,
        CATALOG_EVENTS: '100',
        LOG_LEVEL: 'silent',
        SEGMENTS_WATCH: 'false',
      });
      expect(await server.exited).toBe(1);
      expect(server.errors()).toBe(
        `Port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT (PORT=0 picks a free one)\n`,
      );
      expect(server.output()).not.toMatch(/Storefront running/);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
