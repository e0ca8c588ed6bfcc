import type { Sql } from './sql.js';

/** A store opened on first use: for tests and tools that may never touch it. */
export function lazySql(open: () => Promise<Sql>, kind: Sql['kind'] = 'pglite'): Sql {
  let opened: Promise<Sql> | null = null;
  let ready: Sql | null = null;
  const get = () =>
    (opened ??= open().then((sql) => {
      ready = sql;
      return sql;
    }));
  return {
    kind,
    query: async (text, params) => (await get()).query(text, params),
    transaction: async (fn) => (await get()).transaction(fn),
    close: async () => {
      if (opened) await (await opened).close();
    },
    health: () => ready?.health?.() ?? { available: true, since: new Date(0).toISOString(), detail: 'not opened yet' },
  };
}
