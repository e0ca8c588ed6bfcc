/**
 * Testing Library's waits (`findBy…`, `waitFor`) give up after one second unless told otherwise: on two busy cores a
 * first render can take longer, and a test is to wait for what it expects, not race a clock. Files that run in a DOM
 * (`@vitest-environment happy-dom`) wait up to five seconds; the others never load Testing Library. A test with fake
 * timers waits with `vi.waitFor`, which moves them on as it waits.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}
