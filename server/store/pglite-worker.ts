/**
 * The embedded PostgreSQL (PGlite) in a worker thread of its own: PGlite executes each statement synchronously
 * in WebAssembly, a few milliseconds to a few tens, which on the server's thread would hold up every request
 * meanwhile. `pglite-sql.ts` talks to it with the messages below; a transaction stays open here, its
 * statements arriving one by one, until the server's side commits or rolls it back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';

export type Request =
  | { id: number; op: 'query'; text: string; params: unknown[]; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'close' };

export type Reply = { id: number; rows?: unknown[]; error?: SerializedError };

export interface SerializedError {
  name: string;
  message: string;
  /** The error's own fields (PostgreSQL's `code`, `detail`, `constraint`…). */
  fields: Record<string, unknown>;
}

export interface WorkerOptions {
  dir: string | null;
  startParams: string[];
  /** A data directory PGlite dumped (`dumpDataDir`) to start from, instead of creating a new cluster. */
  dataDir?: Uint8Array<ArrayBuffer>;
}

/** A rollback asked for by the server's side: the transaction ends without committing. */
class RolledBack extends Error {}

function serialize(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return { name: err.name, message: err.message, fields };
}

async function serve(port: NonNullable<typeof parentPort>, options: WorkerOptions) {
  const settings = {
    startParams: options.startParams,
    loadDataDir: options.dataDir ? new Blob([options.dataDir]) : undefined,
  };
  const db = options.dir ? new PGlite(options.dir, settings) : new PGlite(settings);
  await db.waitReady;
  const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; ended?: (reply: Reply) => void }>();
  const reply = (message: Reply) => port.postMessage(message);

  port.on('message', (request: Request) => {
    switch (request.op) {
      case 'query': {
        const target = request.tx === undefined ? db : open.get(request.tx)?.tx;
        if (!target) {
          reply({ id: request.id, error: serialize(new Error(`transaction ${request.tx} is not open`)) });
          return;
        }
        target.query(request.text, request.params).then(
          (result) => reply({ id: request.id, rows: result.rows }),
          (err: unknown) => reply({ id: request.id, error: serialize(err) }),
        );
        return;
      }
      case 'begin': {
        let started = false;
        db.transaction(
          (tx) =>
            new Promise<void>((resolve, reject) => {
              started = true;
              open.set(request.id, { tx, end: (commit) => (commit ? resolve() : reject(new RolledBack())) });
              reply({ id: request.id, rows: [] });
            }),
        ).then(
          () => finish(request.id, null),
          (err: unknown) => {
            if (!started) reply({ id: request.id, error: serialize(err) });
            else finish(request.id, err instanceof RolledBack ? null : err);
          },
        );
        return;
      }
      case 'commit':
      case 'rollback': {
        const entry = open.get(request.tx);
        if (!entry) {
          reply({ id: request.id, error: serialize(new Error(`transaction ${request.tx} is not open`)) });
          return;
        }
        entry.ended = (message) => reply({ ...message, id: request.id });
        entry.end(request.op === 'commit');
        return;
      }
      case 'close':
        db.close().then(
          () => reply({ id: request.id, rows: [] }),
          (err: unknown) => reply({ id: request.id, error: serialize(err) }),
        );
    }
  });

  /** Answers the commit or rollback of a transaction once PGlite has ended it. */
  function finish(tx: number, err: unknown) {
    const entry = open.get(tx);
    open.delete(tx);
    entry?.ended?.(err ? { id: 0, error: serialize(err) } : { id: 0, rows: [] });
  }

  port.postMessage({ ready: true });
}

if (parentPort) {
  const port = parentPort;
  serve(port, workerData as WorkerOptions).catch((err: unknown) => port.postMessage({ failed: serialize(err) }));
}
