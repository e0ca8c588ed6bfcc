import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulClose } from './shutdown.js';

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('gracefulClose', () => {
  it('lets a request in flight finish, then refuses new connections', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((r) => (arrived = r));
    server = createServer((_req, res) => {
      arrived();
      setTimeout(() => res.end('finished'), 300);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;

    const pending = get(port, '/slow');
    await inFlight;
    const closed = gracefulClose(server, 5_000);
    await expect(pending).resolves.toEqual({ status: 200, body: 'finished' });
    await closed;
    await expect(get(port, '/after')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('cuts connections still open after the timeout', async () => {
    server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const pending = get(port, '/hang');
    await new Promise((r) => setTimeout(r, 50));
    await gracefulClose(server, 100);
    await expect(pending).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
