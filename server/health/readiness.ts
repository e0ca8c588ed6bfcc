/** What `/readyz` reports: each part of the server that must be loaded before it can serve shoppers. */
export interface ComponentState {
  ready: boolean;
  /** Serving, but not at its best (a search backend failing behind a cache, say). */
  degraded?: boolean;
  detail?: string;
  since: string;
}

/** A live check of a loaded component: asked on every `/readyz`. */
export type Probe = () => { degraded: boolean; detail: string };

export class Readiness {
  private readonly components = new Map<string, ComponentState>();
  private readonly probes = new Map<string, Probe>();

  constructor(names: readonly string[]) {
    for (const name of names) this.set(name, false, 'starting');
  }

  set(name: string, ready: boolean, detail?: string): void {
    this.components.set(name, { ready, detail, since: new Date().toISOString() });
  }

  probe(name: string, probe: Probe): void {
    this.probes.set(name, probe);
  }

  get ready(): boolean {
    return [...this.components.values()].every((c) => c.ready);
  }

  snapshot(): Record<string, ComponentState> {
    const out: Record<string, ComponentState> = {};
    for (const [name, state] of this.components) {
      const probe = state.ready ? this.probes.get(name) : undefined;
      const live = probe?.();
      out[name] = live?.degraded ? { ...state, degraded: true, detail: live.detail } : state;
    }
    return out;
  }
}
