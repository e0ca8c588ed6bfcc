import { copyFile, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlagsFileSchema, FlagPayloadSchema } from '../../shared/schemas/flags.js';
import { STOREFRONT_FEATURES } from '../../shared/schemas/storefront-features.js';
import {
  FlagFileError,
  FlagStore,
  nextDateUpdated,
  StaticFlagSource,
  Subscribers,
  validatePayload,
  type FlagPayload,
} from './flags-file.js';

const SHIPPED = path.resolve('segments/flags.json');

const payload = (features: unknown, extra: object = {}) => ({
  features,
  dateUpdated: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const problemsOf = (raw: unknown) => {
  const result = validatePayload(raw);
  if (result.ok) throw new Error('expected the payload to be rejected');
  return result.problems;
};

describe('the flags payload schema', () => {
  it('accepts the shipped file with the three flags', async () => {
    const result = validatePayload(JSON.parse(await readFile(SHIPPED, 'utf8')));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.payload.features).sort()).toEqual([
      'home_layout',
      'isABSearch',
      'recent_trending_search',
    ]);
    expect(result.payload.features.home_layout?.rules?.[0]).toMatchObject({
      key: 'home-layout',
      hashAttribute: 'id',
      variations: ['base', 'promos'],
      weights: [0.5, 0.5],
    });
  });

  it('passes GrowthBook fields it does not read through, and drops top-level ones the SDK does not evaluate', () => {
    const result = validatePayload(
      payload(
        {
          f: {
            defaultValue: 1,
            rules: [
              {
                force: 2,
                coverage: 0.5,
                hashAttribute: 'id',
                parentConditions: [{ id: 'g', condition: {} }],
                tracks: [],
              },
            ],
          },
        },
        { experiments: [], status: 200 },
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payload.features.f?.rules?.[0]).toHaveProperty('parentConditions');
    expect(result.payload).not.toHaveProperty('experiments');
  });

  it('rejects garbage with the JSON path of each problem', () => {
    const paths = (raw: unknown) => problemsOf(raw).map((p) => p.path);
    expect(paths({ features: {} })).toEqual(['dateUpdated']);
    expect(paths(payload({ f: { defaultValue: 'a', rules: [{ variations: ['a', 'b'], weights: [0.5] }] } }))).toEqual([
      'features.f.rules[0].weights',
    ]);
    expect(
      paths(payload({ f: { defaultValue: 'a', rules: [{ variations: ['a', 'b'], weights: [0.7, 0.7] }] } })),
    ).toEqual(['features.f.rules[0].weights']);
    expect(paths(payload({ f: { defaultValue: 'a', rules: [{ variations: ['a'] }] } }))).toEqual([
      'features.f.rules[0].variations',
    ]);
    expect(paths(payload({ f: { defaultValue: false, rules: [{ force: 'true' }] } }))).toEqual([
      'features.f.rules[0].force',
    ]);
    expect(paths(payload({ f: { defaultValue: 'base', rules: [{ variations: ['base', 2] }] } }))).toEqual([
      'features.f.rules[0].variations[1]',
    ]);
    expect(paths(payload({ f: { defaultValue: true, rules: [{ force: true, coverage: 2 }] } }))).toEqual([
      'features.f.rules[0].coverage',
    ]);
    expect(paths(payload({ f: { defaultValue: true, rules: [{ coverage: 1 }] } }))).toEqual(['features.f.rules[0]']);
    expect(paths(payload({ f: { defaultValue: true, rules: [{ force: true, variations: [true, false] }] } }))).toEqual([
      'features.f.rules[0].variations',
    ]);
    expect(
      paths(payload({ f: { defaultValue: 'a', rules: [{ variations: ['a', 'b'], meta: [{ key: '0' }] }] } })),
    ).toEqual(['features.f.rules[0].meta']);
    expect(paths(payload({ 'bad key': { defaultValue: true } }))).toEqual(['features.bad key']);
    expect(paths(payload({ f: { defaultValue: true, rules: 'none' } }))).toEqual(['features.f.rules']);
    expect(paths({ ...payload({}), encryptedFeatures: 'abc' })).toEqual(['encryptedFeatures']);
  });

  it('names the reason as well as the path', () => {
    expect(problemsOf(payload({ f: { defaultValue: false, rules: [{ force: 'true' }] } }))[0]?.message).toBe(
      'expected a boolean like defaultValue, got a string',
    );
  });
});

describe('the flags file schema (shared/schemas/json/flags.schema.json)', () => {
  it(
    'accepts the shipped segments/flags.json, $schema line included, and ' + 'names the features the storefront reads',
    async () => {
      const raw = JSON.parse(await readFile(SHIPPED, 'utf8'));
      expect(raw.$schema).toBe('../shared/schemas/json/flags.schema.json');
      expect(FlagsFileSchema.safeParse(raw).error).toBeUndefined();
      expect(Object.keys(STOREFRONT_FEATURES).sort()).toEqual(['home_layout', 'isABSearch', 'recent_trending_search']);
    },
  );

  it('serves the shipped payload without its $schema line, and otherwise as written', async () => {
    const raw = JSON.parse(await readFile(SHIPPED, 'utf8'));
    const result = validatePayload(raw);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payload).not.toHaveProperty('$schema');
    expect(result.payload).toEqual({ features: raw.features, dateUpdated: raw.dateUpdated });
  });

  it('accepts and refuses what the server does', () => {
    const cases: unknown[] = [
      payload({ f: { defaultValue: 'a', rules: [{ variations: ['a', 'b'], weights: [0.7, 0.7] }] } }),
      payload({ home_layout: { defaultValue: 'base', rules: [{ variations: ['base', 2] }] } }),
      payload({ isABSearch: { defaultValue: false, rules: [{ force: true, variations: [true, false] }] } }),
      payload({ 'bad key': { defaultValue: true } }),
      payload({
        f: {
          defaultValue: true,
          rules: [{ force: true, coverage: 0.5, ranges: [[0, 0.5]], namespace: ['ns', 0, 0.5] }],
        },
      }),
      payload(
        { recent_trending_search: { defaultValue: true, rules: [{ condition: { brand: 'encore' }, force: false }] } },
        { $schema: 'x' },
      ),
      { ...payload({}), encryptedFeatures: 'abc' },
    ];
    for (const raw of cases) {
      expect(FlagsFileSchema.safeParse(raw).success, JSON.stringify(raw)).toBe(
        FlagPayloadSchema.safeParse(raw).success,
      );
    }
  });
});

describe('nextDateUpdated', () => {
  it('is now, or one millisecond past the previous one when now is not later', () => {
    expect(nextDateUpdated('2026-01-01T00:00:00.000Z', Date.parse('2026-02-01T00:00:00.000Z'))).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(nextDateUpdated('2026-01-01T00:00:00.000Z', Date.parse('2025-01-01T00:00:00.000Z'))).toBe(
      '2026-01-01T00:00:00.001Z',
    );
  });
});

describe('Subscribers', () => {
  it('keeps notifying the others when one throws', () => {
    const error = vi.fn();
    const subs = new Subscribers<number>({ info: vi.fn(), warn: vi.fn(), error });
    const heard: number[] = [];
    subs.add(() => {
      throw new Error('boom');
    });
    const off = subs.add((n) => heard.push(n));
    subs.notify(1);
    off();
    subs.notify(2);
    expect(heard).toEqual([1]);
    expect(error).toHaveBeenCalledTimes(2);
    expect(subs.size).toBe(1);
  });
});

describe('FlagStore (a watched copy of the flags file)', () => {
  let dir: string | undefined;
  let store: FlagStore | undefined;
  afterEach(async () => {
    store?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const setup = async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'flags-'));
    const file = path.join(dir, 'flags.json');
    await copyFile(SHIPPED, file);
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    store = new FlagStore(file, logger, { debounceMs: 20 });
    return { file, logger, store };
  };
  /** Writes the shipped flags with one change. */
  const edit = async (
    file: string,
    change: (json: { features: Record<string, { defaultValue: unknown; rules?: unknown[] }> }) => void,
  ) => {
    const json = JSON.parse(await readFile(SHIPPED, 'utf8'));
    change(json);
    await writeFile(file, JSON.stringify(json, null, 2));
  };

  it("starts from the later of the file's dateUpdated and its modification time", async () => {
    const { file, store } = await setup();
    const stated = JSON.parse(await readFile(file, 'utf8')).dateUpdated as string;
    await utimes(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    expect((await store.load()).dateUpdated).toBe(stated);
    const later = new Date(Date.parse(stated) + 60_000);
    await utimes(file, later, later);
    const fresh = new FlagStore(file);
    expect((await fresh.load()).dateUpdated).toBe(later.toISOString());
  });

  it('refuses to start on an invalid file, naming file and path', async () => {
    const { file, store } = await setup();
    await edit(file, (json) => {
      json.features.home_layout!.rules = [{ variations: ['base', true] }];
    });
    const err = await store.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FlagFileError);
    expect((err as FlagFileError).problems).toEqual([
      {
        file,
        path: 'features.home_layout.rules[0].variations[1]',
        message: 'expected a string like defaultValue, got a boolean',
      },
    ]);
  });

  it('keeps the last good version on a broken edit, logging file, path and reason', async () => {
    const { file, logger, store } = await setup();
    const before = await store.load();
    const heard = vi.fn();
    store.subscribe(heard);
    store.watch();

    await writeFile(file, '{ "features": ');
    await vi.waitFor(
      () =>
        expect(logger.warn).toHaveBeenCalledWith(
          { file, path: '' },
          expect.stringMatching(/^flags rejected: not valid JSON/),
        ),
      { timeout: 5_000 },
    );
    expect(store.payload()).toBe(before);

    await edit(file, (json) => {
      json.features.isABSearch!.defaultValue = 'yes';
    });
    await vi.waitFor(
      () =>
        expect(logger.warn).toHaveBeenCalledWith(
          { file, path: 'features.isABSearch.rules[0].variations[0]' },
          expect.stringContaining('expected a string'),
        ),
      { timeout: 5_000 },
    );
    await store.settled();
    expect(store.payload()).toBe(before);
    expect(store.status()).toMatchObject({ source: 'file', ok: false });
    expect(heard).not.toHaveBeenCalled();
  });

  it('bumps dateUpdated to now and notifies subscribers on a good edit, once per real change', async () => {
    const { file, logger, store } = await setup();
    const before = await store.load();
    const heard: FlagPayload[] = [];
    store.subscribe((p) => heard.push(p));
    store.watch();

    const editedAt = Date.now();
    await edit(file, (json) => {
      json.features.isABSearch!.defaultValue = true;
    });
    await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 5_000 });
    const after = store.payload();
    expect(heard[0]).toBe(after);
    expect(after.features.isABSearch?.defaultValue).toBe(true);
    expect(Date.parse(after.dateUpdated)).toBeGreaterThan(Date.parse(before.dateUpdated));
    expect(Date.parse(after.dateUpdated)).toBeGreaterThanOrEqual(editedAt - 5);
    expect(store.status()).toMatchObject({ ok: true, problems: [] });
    expect(logger.info).toHaveBeenCalledWith({ file, dateUpdated: after.dateUpdated }, 'flags reloaded');

    // Saving the same flags again (here: other formatting) is not a change.
    await writeFile(file, JSON.stringify(JSON.parse(await readFile(file, 'utf8'))));
    await store.settled();
    expect(heard).toHaveLength(1);
    expect(store.payload()).toBe(after);
  });
});

describe('StaticFlagSource', () => {
  it('moves dateUpdated on when the new payload does not', () => {
    const source = new StaticFlagSource({ features: {}, dateUpdated: '2026-01-01T00:00:00.000Z' });
    const next = source.set({ features: { f: { defaultValue: true } }, dateUpdated: '2026-01-01T00:00:00.000Z' });
    expect(Date.parse(next.dateUpdated)).toBeGreaterThan(Date.parse('2026-01-01T00:00:00.000Z'));
  });
});
