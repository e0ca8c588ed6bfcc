import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { CollectionNameSchema, type CollectionName } from '../../shared/schemas/documents.js';
import { AppError, noRouteIn, toErrorResponse } from '../http/errors.js';
import { sameSecret } from '../http/security.js';
import { DIRTY_VALUES, WRITE_ACTIONS, type PreparedWrite, type RefusedWrite } from '../catalog/document-writes.js';
import type { LiveCatalog, WriteItem } from './live-catalog.js';
import { jsonBody } from '../http/json-body.js';

/** An import body above this is refused with 413: a feed sends a large catalog in several requests. */
export const IMPORT_BODY_LIMIT = '32mb';
/** One document sent alone (create, upsert, update by id). */
const DOCUMENT_BODY_LIMIT = '256kb';

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');
const ImportQuerySchema = z.object({
  // Typesense's default action is create.
  action: z.enum(WRITE_ACTIONS, { error: `action must be one of ${WRITE_ACTIONS.join(', ')}` }).default('create'),
  dirty_values: z
    .enum(DIRTY_VALUES, { error: `dirty_values must be one of ${DIRTY_VALUES.join(', ')}` })
    .default('coerce_or_reject'),
  return_id: flag.default(false),
  return_doc: flag.default(false),
});

/**
 * The catalog documents API, shaped as Typesense's (`/collections/:name/documents…`), so that a feed written
 * for Typesense, or the official client with `path: '/api/admin'`, writes to the storefront unchanged. Only
 * an operator holding `CATALOG_ADMIN_KEY` may call it; errors answer as Typesense's do, `{ "message": … }`.
 */
export function catalogAdminRoutes(live: LiveCatalog, adminKey: string, limiters: RequestHandler[]): Router {
  const router = Router();
  // RULES 18.4: limited before the key is checked, so wrong keys are limited too.
  router.use(limiters);
  router.use(operatorOnly(adminKey));
  const text = express.text({ type: () => true, limit: IMPORT_BODY_LIMIT });
  const json = jsonBody({ type: () => true, limit: DOCUMENT_BODY_LIMIT, strict: false });

  router.post('/collections/:collection/documents/import', text, async (req, res) => {
    const collection = collectionOf(req);
    const query = parseQuery(req);
    if (typeof req.body !== 'string' || req.body.trim() === '')
      throw new AppError(400, 'no_documents', 'The request body must hold documents, one JSON object per line.');
    const lines = req.body.split('\n').map((line) => line.replace(/\r$/, ''));
    // A final newline ends the last line; it does not start another.
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const items: WriteItem[] = lines.map((line) => ({ text: line, value: parseLine(line) }));
    const outcomes = await live.write(collection, query.action, items, query.dirty_values);
    const results = outcomes.map((outcome, i) =>
      JSON.stringify(importResult(outcome, items[i]!.text, query.return_id, query.return_doc)),
    );
    res.type('text/plain').send(results.join('\n'));
  });

  router.post('/collections/:collection/documents', ...json, async (req, res) => {
    const collection = collectionOf(req);
    const { action, dirty_values } = parseQuery(req);
    const outcome = await writeOne(live, collection, action, req.body, dirty_values);
    res.status(action === 'create' ? 201 : 200).json(outcome.document);
  });

  router.get('/collections/:collection/documents/:id', async (req, res) => {
    const collection = collectionOf(req);
    const found = await live.document(collection, String(req.params.id));
    if (!found) throw missing(req);
    res.json(found);
  });

  router.patch('/collections/:collection/documents/:id', ...json, async (req, res) => {
    const collection = collectionOf(req);
    const { dirty_values } = parseQuery(req);
    const body = req.body as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new AppError(400, 'bad_json', 'Bad JSON: a document must be a JSON object.');
    const id = String(req.params.id);
    if ('id' in body && body.id !== id)
      throw new AppError(
        400,
        'id_mismatch',
        `The document's id ${JSON.stringify(body.id)} is not the id in the path, ${JSON.stringify(id)}.`,
      );
    const outcome = await writeOne(live, collection, 'update', { ...body, id }, dirty_values);
    res.json(outcome.document);
  });

  router.delete('/collections/:collection/documents/:id', async (req, res) => {
    const collection = collectionOf(req);
    const deleted = await live.delete(collection, String(req.params.id));
    if (!deleted) throw missing(req);
    res.json(deleted);
  });

  router.use(noRouteIn(router, 'catalog API'));
  router.use(typesenseErrors);
  return router;
}

/** Lets through requests carrying the operator key, compared in constant time; the rest get 401. */
function operatorOnly(adminKey: string): RequestHandler {
  return (req, _res, next) => {
    // Typesense clients send the key as a header, or as a query parameter when told to.
    const header = req.get('x-typesense-api-key');
    const param = typeof req.query['x-typesense-api-key'] === 'string' ? req.query['x-typesense-api-key'] : undefined;
    const given = header ?? param;
    if (given === undefined || !sameSecret(given, adminKey)) {
      throw new AppError(401, 'unauthorized', 'Forbidden - a valid `x-typesense-api-key` header must be sent.');
    }
    next();
  };
}

function collectionOf(req: Request): CollectionName {
  const parsed = CollectionNameSchema.safeParse(req.params.collection);
  if (!parsed.success)
    throw new AppError(404, 'collection_not_found', `Collection \`${String(req.params.collection)}\` not found.`);
  return parsed.data;
}

function parseQuery(req: Request) {
  const parsed = ImportQuerySchema.safeParse({
    action: req.query.action,
    dirty_values: req.query.dirty_values,
    return_id: req.query.return_id,
    return_doc: req.query.return_doc,
  });
  if (!parsed.success)
    throw new AppError(
      400,
      'invalid_parameter',
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  return parsed.data;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function missing(req: Request): AppError {
  return new AppError(404, 'document_not_found', `Could not find a document with id: ${String(req.params.id)}`);
}

async function writeOne(
  live: LiveCatalog,
  collection: CollectionName,
  action: (typeof WRITE_ACTIONS)[number],
  body: unknown,
  dirty: (typeof DIRTY_VALUES)[number],
): Promise<PreparedWrite> {
  const [outcome] = await live.write(
    collection,
    action,
    [{ text: JSON.stringify(body) ?? '', value: body ?? undefined }],
    dirty,
  );
  if (!outcome!.ok) throw new AppError(outcome!.code, 'document_refused', outcome!.error);
  return outcome!;
}

/** One line of an import's answer, as Typesense writes it. */
function importResult(
  outcome: PreparedWrite | RefusedWrite,
  text: string,
  returnId: boolean,
  returnDoc: boolean,
): Record<string, unknown> {
  if (outcome.ok)
    return {
      success: true,
      ...(returnId ? { id: outcome.id } : {}),
      ...(returnDoc ? { document: outcome.document } : {}),
    };
  return { success: false, error: outcome.error, document: text, code: outcome.code };
}

/** Errors as Typesense answers them, `{ "message": … }`, with the status the storefront gives them. */
const typesenseErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, body } = toErrorResponse(err);
  if (status >= 500) req.log?.error({ err }, 'catalog API request failed');
  else req.log?.info({ code: body.error.code }, body.error.message);
  if (status === 503) res.set('Retry-After', '5');
  res.status(status).json({ message: body.error.message });
};
