import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { keptReads } from '../../shared/kept-reads.js';

/** The encodings an answer may go out in besides as it is. */
export type Encoding = 'br' | 'gzip';

/**
 * RULES 13.10: brotli for an answer's first sending: made for one request, it goes out quickly (a third less time
 * than the next quality on a rendered page, whose compression is most of what it costs after its render).
 */
const BROTLI_FIRST_QUALITY = 4;
/** Brotli for an answer asked for again (`compressHarder`): about an eighth fewer bytes on every later replay. */
const BROTLI_KEPT_QUALITY = 5;
/** Answers smaller than this go out as they are, as the app's compression does. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * An answer (JSON, or a rendered page) the app built once and that any request with the same key may get again, byte
 * for byte.
 */
export interface ReplayableAnswer {
  body: string;
  /** The media type; JSON when absent. */
  type?: string;
  /** Headers of this answer's own, over the common ones (a rendered page's CSP, with its stylesheet's hash). */
  headers?: Readonly<Record<string, string>>;
  etag: string;
  cacheControl: string;
  /** The request headers the answer depends on besides the URL, as for `Vary`. */
  vary: readonly string[];
  /**
   * When it was made (ms since the epoch), for answers a shared cache keeps: each replay says its `Age`, so a
   * cache counts the answer's lifetime from when it was made, not from when it was replayed.
   */
  madeAt?: number;
  /** The body in each encoding it went out in, made on first use (`encodedBody`). */
  readonly encodings: Map<Encoding | 'identity', Buffer>;
  /** Set once its brotli body is to be made again at the kept quality (`compressHarder`). */
  compressedHarder?: boolean;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON body with its weak ETag, hashed once so that no repeat hashes it again. */
export function replayableJson(
  body: string,
  headers: { cacheControl: string; vary: readonly string[] },
): ReplayableAnswer {
  return { body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`, ...headers, encodings: new Map() };
}

/** A rendered page with its weak ETag, replayed like a JSON answer, saying its age. */
export function replayableHtml(
  body: string,
  headers: { cacheControl: string; vary?: readonly string[]; own?: Record<string, string> },
): ReplayableAnswer {
  const { own, vary = [], ...common } = headers;
  return {
    ...replayableJson(body, { ...common, vary }),
    type: 'text/html; charset=utf-8',
    ...(own ? { headers: own } : {}),
    madeAt: Date.now(),
  };
}

/** The `Age` header of a replay (RULES 13.7): whole seconds since the answer was made. */
export function ageOf(answer: ReplayableAnswer, now = Date.now()): string | undefined {
  return answer.madeAt === undefined ? undefined : String(Math.max(0, Math.floor((now - answer.madeAt) / 1000)));
}

/**
 * The answer's body in an encoding, compressed on first use and kept: each answer is compressed at most once per
 * encoding.
 */
export function encodedBody(answer: ReplayableAnswer, encoding: Encoding | 'identity'): Buffer {
  let body = answer.encodings.get(encoding);
  if (!body) {
    const raw = Buffer.from(answer.body, 'utf8');
    body = encoding === 'br' ? brotli(raw, BROTLI_FIRST_QUALITY) : encoding === 'gzip' ? gzipSync(raw) : raw;
    answer.encodings.set(encoding, body);
  }
  return body;
}

/**
 * An answer asked for again: its brotli body is compressed once more at the kept quality, on the next turn (after
 * the reply under way is out), and kept in place of the first. What is made for one request goes out quickly, what
 * is replayed goes out smaller. Once per answer: a later call does nothing.
 */
export function compressHarder(answer: ReplayableAnswer): void {
  if (answer.compressedHarder) return;
  answer.compressedHarder = true;
  setImmediate(() => answer.encodings.set('br', brotli(Buffer.from(answer.body, 'utf8'), BROTLI_KEPT_QUALITY)));
}

function brotli(raw: Buffer, quality: number): Buffer {
  return brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
}

/** The encoding a request gets an answer in: none below `COMPRESS_FROM_BYTES`, as the app's compression does. */
export function encodingFor(req: IncomingMessage, answer: ReplayableAnswer): Encoding | 'identity' {
  return (
    (answer.body.length >= COMPRESS_FROM_BYTES ? preferredEncoding(req.headers['accept-encoding']) : undefined) ??
    'identity'
  );
}

/**
 * Sends a replayable answer from the app with the headers and bytes the lane sends it with: the two paths agree.
 * The body is compressed here, once per encoding, and goes out whole with its length in one write (the app's
 * streaming compression leaves an answer already encoded alone).
 */
export function sendReplayable(req: Request, res: Response, answer: ReplayableAnswer): void {
  for (const name of [...answer.vary, 'Accept-Encoding']) res.vary(name);
  if (answer.headers) res.set(answer.headers);
  res.set('Cache-Control', answer.cacheControl).set('ETag', answer.etag);
  const age = ageOf(answer);
  if (age !== undefined) res.set('Age', age);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  const encoding = encodingFor(req, answer);
  const body = encodedBody(answer, encoding);
  if (encoding !== 'identity') res.set('Content-Encoding', encoding);
  res
    .type(answer.type ?? JSON_TYPE)
    .set('Content-Length', String(body.length))
    .end(body);
}

/**
 * `br` or `gzip` as the `Accept-Encoding` header allows, preferring brotli as the app's compression does;
 * undefined for neither (a `q=0` refuses an encoding; `*` stands for any not named).
 */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  return header ? readEncodings(header) : undefined;
}

/** Browsers send a handful of `Accept-Encoding` values, each the same on every request: the first 64 read once. */
const readEncodings = keptReads((header) => readAcceptEncoding(header), 64, 256);

function readAcceptEncoding(header: string): Encoding | undefined {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (name) q.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}
