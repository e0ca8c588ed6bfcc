/**
 * Runs `task` every `intervalMs` until the returned function is called: a tick whose task is still running is
 * skipped (a slow store never piles runs up), a failing one is handed to `failed` and tried again next time,
 * and the timer never keeps the process alive.
 */
export function repeat(task: () => Promise<unknown>, intervalMs: number, failed: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    task()
      .catch(failed)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
