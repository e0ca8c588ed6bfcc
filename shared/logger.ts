/**
 * The slice of pino's logger the code writes with: structured fields first, then a sentence. Modules take the
 * narrowest slice they use, so a test can pass a plain object.
 */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export type WarnLogger = Pick<Logger, 'warn'>;
export type ErrorLogger = Pick<Logger, 'error'>;
