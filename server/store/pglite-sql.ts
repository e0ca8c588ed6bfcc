import { mkdir } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { Reply, Request, SerializedError, WorkerOptions } from './pglite-worker.js';
import { classifyStoreError, StoreUnavailableError } from './store-errors.js';
import type { Sql, SqlTx } from './sql.js';

/**
 * PostgreSQL's buffer cache inside PGlite. Its default (128 MB) is sized for a database server; the embedded
 * store holds a sandbox's carts, holds and orders, and the smaller cache takes about 120 MB off the process.
 */
const SHARED_BUFFERS = '16MB';

type Pending = { resolve: (rows: unknown[]) => void; reject: (err: unknown) => void };
type Body = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The embedded default: PGlite with its files in `dir` (or in memory when `dir` is null, for tests), run in a
 * worker thread (`pglite-worker.ts`) so that its statements never hold up the server's event loop. `dataDir`, a
 * data directory PGlite dumped, is where a new database starts (tests start from a migrated one).
 */
export async function openPglite(dir: string | null, dataDir?: Uint8Array<ArrayBuffer>): Promise<Sql> {
  if (dir) await mkdir(dir, { recursive: true });
  const options: WorkerOptions = {
    dir,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    dataDir,
  };
  const here = new URL(import.meta.url);
  const fromSources = here.pathname.endsWith('.ts');
  const script = new URL(`./pglite-worker${fromSources ? '.ts' : '.js'}`, here);
  // Run from the sources (tests), the worker first registers the TypeScript loader the sources need.
  const worker = fromSources
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script.href)}); });`,
        { eval: true, workerData: options },
      )
    : new Worker(script, { workerData: options });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  let gone: Error | null = null;

  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: true; failed?: SerializedError }) => {
      worker.off('message', onMessage);
      if (message.ready) resolve();
      else reject(revive(message.failed!));
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  // The worker keeps the process alive only while a call waits on it (a CLI ends when its work does).
  worker.unref();
  worker.on('message', (reply: Reply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error) waiting.reject(revive(reply.error));
    else waiting.resolve(reply.rows ?? []);
  });
  const fail = (err: Error) => {
    gone = new StoreUnavailableError(err);
    for (const waiting of pending.values()) waiting.reject(gone);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the PGlite worker exited (${code})`)));

  /** Sends one request under `id` (a fresh one unless given) and waits for its reply. */
  const call = (body: Body, id = nextId++): Promise<unknown[]> => {
    if (gone) return Promise.reject(gone);
    if (closed) return Promise.reject(new StoreUnavailableError(new Error('PGlite was closed')));
    return new Promise((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...body, id } as Request);
    });
  };
  const query = async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await call({ op: 'query', text, params }).catch(classifyStoreError)) as R[];

  return {
    kind: 'pglite',
    query,
    async transaction(fn) {
      // The id of the `begin` call names the transaction.
      const tx = nextId++;
      await call({ op: 'begin' }, tx).catch(classifyStoreError);
      const scoped: SqlTx = {
        query: async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
          (await call({ op: 'query', text, params, tx })) as R[],
      };
      let result;
      try {
        result = await fn(scoped);
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => {});
        return classifyStoreError(err);
      }
      await call({ op: 'commit', tx }).catch(classifyStoreError);
      return result;
    },
    async close() {
      if (closed) return;
      await call({ op: 'close' }).catch(() => {});
      closed = true;
      await worker.terminate();
    },
    // In-process: it is there as long as its worker is.
    health: () => ({
      available: !closed && !gone,
      since: new Date(0).toISOString(),
      detail: closed ? 'PGlite closed' : gone ? 'PGlite worker stopped' : 'PGlite in a worker thread of this process',
    }),
  };
}

/** An error from the worker as an Error again, with PostgreSQL's fields (`code`…) where they were. */
function revive(serialized: SerializedError): Error {
  const err = Object.assign(new Error(serialized.message), serialized.fields);
  err.name = serialized.name;
  return err;
}
