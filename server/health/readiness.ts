/** What `/readyz` reports: each part of the server that must be loaded before it can serve shoppers. */
export interface ComponentState {
  ready: boolean;
  detail?: string;
  since: string;
}

export class Readiness {
  private readonly components = new Map<string, ComponentState>();

  constructor(names: readonly string[]) {
    for (const name of names) this.set(name, false, 'starting');
  }

  set(name: string, ready: boolean, detail?: string): void {
    this.components.set(name, { ready, detail, since: new Date().toISOString() });
  }

  get ready(): boolean {
    return [...this.components.values()].every((c) => c.ready);
  }

  snapshot(): Record<string, ComponentState> {
    return Object.fromEntries(this.components);
  }
}
