import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';

/** The one error class: its code and status reach the client as `{ error: { code, message, details } }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

function zodDetails(error: ZodError) {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** Turns anything thrown into the JSON error model; never leaks a stack trace. */
export function toErrorResponse(err: unknown): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: err.status, body: { error: { code: err.code, message: err.message, details: err.details } } };
  }
  if (err instanceof ZodError) {
    const details = zodDetails(err);
    const message = details.map((d) => (d.path ? `${d.path}: ${d.message}` : d.message)).join('; ');
    return { status: 400, body: { error: { code: 'invalid_request', message, details } } };
  }
  // body-parser and other http-errors style errors carry a 4xx status of their own.
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const type = (err as { type?: unknown }).type;
    const message = err instanceof Error && err.message ? err.message : 'Bad request';
    return {
      status,
      body: { error: { code: typeof type === 'string' ? type.replaceAll('.', '_') : 'bad_request', message } },
    };
  }
  return { status: 500, body: { error: { code: 'internal', message: 'Internal server error' } } };
}

export const errorMiddleware: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) return next(err);
  const { status, body } = toErrorResponse(err);
  if (status >= 500) req.log?.error({ err }, 'request failed');
  else req.log?.info({ code: body.error.code }, body.error.message);
  res.status(status).json(body);
};

export const apiNotFound: RequestHandler = (req) => {
  throw new AppError(404, 'not_found', `No API route for ${req.method} ${req.path}`);
};
