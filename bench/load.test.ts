import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { load, rotate, summarize, usGridPoints, type LoadResult } from './load.js';

const run = (rps: number, p99Ms: number, extra: Partial<LoadResult> = {}): LoadResult => ({
  connections: 50,
  seconds: 1,
  requests: rps,
  sent: rps + 50,
  rps,
  p50Ms: 1,
  p99Ms,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: { '200': rps },
  bytes: rps * 100,
  ...extra,
});

describe('summarize', () => {
  it('takes medians over rounds and pairs each round with its own ceiling', () => {
    const s = summarize([run(100, 5), run(300, 50), run(200, 7)], [run(1000, 1), run(1000, 1), run(400, 1)]);
    expect(s.rps).toBe(200);
    expect(s.p99Ms).toBe(7);
    expect(s.worstP99Ms).toBe(50);
    // Per-round ratios 0.1, 0.3 and 0.5: the burst in round 3 slowed both sides alike.
    expect(s.ofCeiling).toBeCloseTo(0.3);
    expect(s.requests).toBe(600);
    expect(s.unanswered).toBe(150);
    expect(s.bytesPerResponse).toBe(100);
  });

  it('adds up errors and status codes', () => {
    const s = summarize(
      [
        run(10, 1, { errors: 2, non2xx: 1, statusCodes: { '200': 9, '503': 1 } }),
        run(10, 1, { timeouts: 1, errors: 1 }),
      ],
      [run(20, 1), run(20, 1)],
    );
    expect(s.errors).toBe(3);
    expect(s.timeouts).toBe(1);
    expect(s.statusCodes).toEqual({ '200': 19, '503': 1 });
  });
});

describe('usGridPoints', () => {
  it('gives distinct 0.1° cells, and a skipped set shares none with the one before it', () => {
    const cell = ([lat, lng]: [number, number]) => `${Math.round(lat * 10)},${Math.round(lng * 10)}`;
    const first = usGridPoints(1000).map(cell);
    const next = usGridPoints(4000, 1000).map(cell);
    expect(new Set(first).size).toBe(1000);
    expect(new Set(next).size).toBe(4000);
    expect(next.some((c) => first.includes(c))).toBe(false);
  });
});

describe('rotate', () => {
  it('goes round the list from one cursor', () => {
    const next = rotate(['a', 'b']);
    expect([next(), next(), next()]).toEqual(['a', 'b', 'a']);
  });
});

describe('load', () => {
  it("sends each planned request with its own headers on top of the run's", async () => {
    const seen = new Set<string>();
    const server = createServer((req, res) => {
      seen.add(`${req.url} ${req.headers.cookie ?? '-'} ${req.headers.accept ?? '-'}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const planned = rotate(['/a', { path: '/', headers: { cookie: 'shopperLocation=40.76,-73.99' } }]);
      const r = await load({
        url: `http://127.0.0.1:${port}`,
        connections: 2,
        seconds: 0.3,
        headers: { accept: 'text/html' },
        paths: planned,
      });
      expect(r.requests).toBeGreaterThan(2);
      expect([...seen].sort()).toEqual(['/ shopperLocation=40.76,-73.99 text/html', '/a - text/html']);
    } finally {
      server.close();
    }
  });
});
