import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSnapshot, SnapshotError, SnapshotWriter, writeSnapshot } from './snapshot.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'snapshot-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function sample(file: string) {
  const writer = new SnapshotWriter();
  const tree = {
    name: 'events',
    // Odd lengths, so arrays after them need padding to stay aligned.
    live: writer.array(Uint8Array.of(1, 0, 1)),
    ids: writer.array(Int32Array.of(7, -1, 3)),
    prices: writer.array(Float64Array.of(12.5, Number.NaN, 0.1)),
    nested: [{ list: writer.array(new Int32Array(0)) }],
  };
  await writeSnapshot(file, { source: 'a' }, tree, writer);
}

describe('engine snapshots', () => {
  it('give back the tree and every array, aligned, as written', async () => {
    const file = path.join(dir, 'round-trip.snapshot');
    await sample(file);
    const { tree, reader } = await readSnapshot(file, { source: 'a' });
    const t = tree as Record<string, unknown> & { nested: { list: unknown }[] };
    expect(t.name).toBe('events');
    expect([...reader.array(t.live, Uint8Array)]).toEqual([1, 0, 1]);
    expect([...reader.array(t.ids, Int32Array)]).toEqual([7, -1, 3]);
    const prices = reader.array(t.prices, Float64Array);
    expect([...prices]).toEqual([12.5, Number.NaN, 0.1]);
    expect(prices.byteOffset % 8).toBe(0);
    expect(reader.array(t.nested[0]!.list, Int32Array).length).toBe(0);
    expect(() => reader.array(t.ids, Float64Array)).toThrow(SnapshotError);
    // Written through a file of its own, renamed into place: nothing else is left behind.
    expect((await readdir(dir)).filter((f) => f.startsWith('round-trip'))).toEqual(['round-trip.snapshot']);
  });

  it('are refused when made from something else, damaged, cut short or not snapshots at all', async () => {
    const file = path.join(dir, 'refused.snapshot');
    await sample(file);
    await expect(readSnapshot(file, { source: 'b' })).rejects.toThrow(/another catalog or engine/);
    const good = await readFile(file);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 3]! ^= 0x10;
    await writeFile(file, flipped);
    await expect(readSnapshot(file, { source: 'a' })).rejects.toThrow(/checksum/);

    await writeFile(file, good.subarray(0, good.length - 8));
    await expect(readSnapshot(file, { source: 'a' })).rejects.toThrow(SnapshotError);

    await writeFile(file, good.subarray(0, 60));
    await expect(readSnapshot(file, { source: 'a' })).rejects.toThrow(/truncated|damaged/);

    await writeFile(file, '{"not":"a snapshot"}');
    await expect(readSnapshot(file, { source: 'a' })).rejects.toThrow(/not an engine snapshot/);

    await expect(readSnapshot(path.join(dir, 'missing.snapshot'), { source: 'a' })).rejects.toThrow(/cannot read/);
  });
});
