/** The history entry of the page the server sent, as React Router keys it; null when the client drew the page. */
let served: string | null = null;

/**
 * Notes the entry the server's page is shown at, before hydration: React Router keys an entry by
 * `history.state.key`, which a reload keeps, or `default` for a fresh one.
 */
export function noteServedEntry(): void {
  served = (history.state as { key?: unknown } | null)?.key?.toString() ?? 'default';
}

/** Whether the router's entry `key` still shows the page the server sent (no navigation since). */
export function isServedEntry(key: string): boolean {
  return served !== null && key === served;
}
