import express, { type RequestHandler } from 'express';
import { jsonValueProblem } from '../../shared/rules/json-limits.js';
import { AppError } from './errors.js';

/**
 * RULES 14.15: a parsed JSON body nesting deeper than any document of ours, or holding text no store can keep (a NUL,
 * a lone surrogate), is refused with a 400 naming where, before a route walks or stores it.
 */
const refuseUnkeepableJson: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  const problem = typeof body === 'object' && body !== null ? jsonValueProblem(body) : undefined;
  next(problem ? new AppError(400, 'bad_json_value', `Bad JSON: ${problem}.`) : undefined);
};

/** Every JSON body the server reads: Express's parser with `options`, then the check above. */
export function jsonBody(options: Parameters<typeof express.json>[0]): RequestHandler[] {
  return [express.json(options), refuseUnkeepableJson];
}
