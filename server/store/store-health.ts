import type { StoreHealth } from './sql.js';
import { StoreUnavailableError } from './store-errors.js';

/** Whether the store answered its last use: flips on the first failure and back on the first success. */
export class StoreHealthTracker {
  private current: StoreHealth;

  constructor(private readonly name: string) {
    this.current = { available: true, since: new Date().toISOString(), detail: `${name} reachable` };
  }

  succeeded(): void {
    if (!this.current.available)
      this.current = { available: true, since: new Date().toISOString(), detail: `${this.name} reachable` };
  }

  failed(err: unknown): void {
    // The driver's own words say why (refused, terminated…); they go to /readyz for operators, never to shoppers.
    const reason = describe(err);
    if (this.current.available)
      this.current = {
        available: false,
        since: new Date().toISOString(),
        detail: `${this.name} unavailable: ${reason}`,
      };
  }

  state(): StoreHealth {
    return { ...this.current };
  }
}

/** The first line of what went wrong, looking through our own wrapper to the driver's error and its code. */
function describe(err: unknown): string {
  const inner = err instanceof StoreUnavailableError && err.cause !== undefined ? err.cause : err;
  if (!(inner instanceof Error)) return String(inner).slice(0, 200);
  const code = (inner as { code?: unknown }).code;
  const message =
    inner.message.split('\n')[0] ||
    (inner instanceof AggregateError
      ? inner.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ')
      : inner.name);
  return (typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 200);
}
