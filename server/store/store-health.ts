import type { StoreHealth } from './sql.js';

/** Whether the store answered its last use: flips on the first failure and back on the first success. */
export class StoreHealthTracker {
  private current: StoreHealth;

  constructor(private readonly name: string) {
    this.current = { available: true, since: new Date().toISOString(), detail: `${name} reachable` };
  }

  succeeded(): void {
    if (!this.current.available) this.current = { available: true, since: new Date().toISOString(), detail: `${this.name} reachable` };
  }

  failed(err: unknown): void {
    // The driver's own words say why (refused, terminated…); they go to /readyz for operators, never to shoppers.
    const reason = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 200) : String(err);
    if (this.current.available) this.current = { available: false, since: new Date().toISOString(), detail: `${this.name} unavailable: ${reason}` };
  }

  state(): StoreHealth {
    return { ...this.current };
  }
}
