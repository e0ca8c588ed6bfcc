/** The slices of the app's pino logger the rules use, so a test can pass a plain object. */
export interface WarnLogger {
  warn(obj: object, msg: string): void;
}

export interface ErrorLogger {
  error(obj: object, msg: string): void;
}
