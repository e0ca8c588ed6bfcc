import express, { type RequestHandler } from 'express';
import { jsonValueIssue } from '../../shared/rules/json-limits.js';
import { AppError } from './errors.js';

/**
 * RULES 14.15: a parsed JSON body nesting deeper than any document of ours, or holding text no store can keep (a NUL,
 * a lone surrogate), is refused with a 400 naming where, before a route walks or stores it.
 */
const refuseUnkeepableJson: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  const issue = typeof body === 'object' && body !== null ? jsonValueIssue(body) : undefined;
  if (!issue) return next();
  // Named as a schema's refusal is (`details`), so a form can show it at its field.
  const message = `Bad JSON: ${issue.path || 'the body'} ${issue.problem}.`;
  next(new AppError(400, 'bad_json_value', message, [{ path: issue.path, message: issue.problem }]));
};

/**
 * A body Express's JSON parser left alone because its Content-Type is not JSON (`text/plain`, a form) is refused
 * naming the type, rather than read as no body and refused for the fields it seems to lack. A body counts when its
 * length says so, or, sent in chunks (no length known before it is read), when it names a type; an empty body (no
 * Content-Length, or 0; an empty chunked one that names no type) is none, and routes that take no input accept it. A
 * GET or HEAD is never refused for what it carries.
 */
const refuseOtherTypes: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined || req.method === 'GET' || req.method === 'HEAD') return next();
  const type = req.headers['content-type'];
  const length = Number(req.headers['content-length'] ?? 0);
  const sent = length > 0 || (req.headers['transfer-encoding'] !== undefined && type !== undefined);
  if (!sent) return next();
  const named = type ? JSON.stringify(type.slice(0, 100)) : 'not named';
  const message = `Send the body as JSON, with Content-Type: application/json; this one is ${named}`;
  next(new AppError(415, 'unsupported_media_type', message));
};

/** Every JSON body the server reads: Express's parser with `options`, then the checks above. */
export function jsonBody(options: Parameters<typeof express.json>[0]): RequestHandler[] {
  return [express.json(options), refuseOtherTypes, refuseUnkeepableJson];
}
