/**
 * One run of browser event batches posted to `POST /api/events`, in a process of its own (for the reason
 * load-child.ts gives): reads an `EventLoadOptions` JSON on stdin, posts for the warm-up (discarded) and then the
 * measured seconds, and prints an `EventLoadResult` as JSON on its last line. Every batch is a page view of its
 * own with ids never sent before, so each event is a new row and none is a repeat the store drops.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { settle, SETTLE_MAX_MS } from './children.js';
import { resultOf, type LoadResult } from './load.js';

export interface EventLoadOptions {
  /** The server's origin. */
  base: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** `guestToken=<token>`: the guest the events are from. */
  cookie: string;
  userAgent: string;
  /** Events in each batch (at least 3: a page view, row impressions, a row click and an add to cart). */
  batchSize: number;
  /** Batches per second from all connections together; as fast as they are answered when absent. */
  batchesPerSecond?: number;
  /** Waited on to go idle after the warm-up (see load.ts, `settlePid`). */
  settlePid?: number;
}

export interface EventLoadResult extends LoadResult {
  /** Events the server said it took (`{"accepted": n}`), summed over the measured run's answers. */
  accepted: number;
  /** The same over the warm-up, and the batches the warm-up sent. */
  warmupAccepted: number;
  warmupSent: number;
}

const BATCH_OVERHEAD_EVENTS = 3;

/** Event batches as a home page sends them, each with a page view and event ids of its own. */
export function batchMaker(size: number): () => string {
  const prefix = randomBytes(4).toString('hex');
  let n = 0;
  const id = () => `${prefix}${(n++).toString(36).padStart(7, '0')}`;
  return () => {
    const pageView = id();
    const at = Date.now();
    const common = { pageView, page: '/', at, variation: 'base' };
    const impressions = Array.from({ length: Math.max(0, size - BATCH_OVERHEAD_EVENTS) }, (_, k) => ({
      ...common,
      id: id(),
      name: 'row_impression',
      rowId: `row-${k + 1}`,
      position: k + 1,
      source: { file: 'base/home.json', version: 1 },
    }));
    const events = [
      { ...common, id: id(), name: 'page_view' },
      ...impressions,
      { ...common, id: id(), name: 'row_click', rowId: 'row-1', position: 1, itemPosition: 2, item: 'event:1' },
      { ...common, id: id(), name: 'add_to_cart', item: 'listing:1' },
    ].slice(0, size);
    return JSON.stringify({ events });
  };
}

async function post(options: EventLoadOptions, seconds: number, next: () => string) {
  let accepted = 0;
  const request: autocannon.Request = {
    method: 'POST',
    path: '/api/events',
    setupRequest: (r: autocannon.Request) => ({ ...r, body: next() }),
    onResponse: (status: number, body: string) => {
      if (status === 202) accepted += Number(/"accepted":(\d+)/.exec(body)?.[1] ?? 0);
    },
  };
  const r = await autocannon({
    url: options.base,
    connections: options.connections,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json', cookie: options.cookie, 'user-agent': options.userAgent },
    requests: [request],
    ...(options.batchesPerSecond ? { overallRate: options.batchesPerSecond } : {}),
  });
  return { result: resultOf(r, options.connections), accepted };
}

async function main() {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const options = JSON.parse(Buffer.concat(chunks).toString('utf8')) as EventLoadOptions;
  const next = batchMaker(options.batchSize);
  let warmupAccepted = 0;
  let warmupSent = 0;
  if (options.warmupSeconds > 0) {
    const warmup = await post(options, options.warmupSeconds, next);
    warmupAccepted = warmup.accepted;
    warmupSent = warmup.result.sent;
    if (options.settlePid !== undefined) await settle(options.settlePid, SETTLE_MAX_MS);
  }
  process.stdout.write('posting\n');
  const { result, accepted } = await post(options, options.seconds, next);
  const out: EventLoadResult = { ...result, accepted, warmupAccepted, warmupSent };
  process.stdout.write(`\n${JSON.stringify(out)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
