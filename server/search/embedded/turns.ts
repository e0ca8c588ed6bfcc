/**
 * Spec-free tuning: how long one task may keep answering queued queries before it gives the event loop back.
 * Half of the 20 ms that no task may exceed while serving, leaving room for the rest of a request's work.
 */
export const SLICE_MS = 10;

interface Job {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs queued work in slices of the event loop: a slice (a task of its own, after the timers and I/O that
 * came due meanwhile, a row deadline among them) runs queued work in order until it has taken `sliceMs`, then
 * leaves the rest to the next slice. A page's dozen row queries usually share one slice; at a million events
 * they spread over several, and no task grows long however many pages are asked for at once.
 */
export class Turns {
  private readonly queue: Job[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly sliceMs = SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.slice);
      }
    });
  }

  private readonly slice = (): void => {
    const ends = this.now() + this.sliceMs;
    do {
      const job = this.queue[this.head++]!;
      try {
        job.resolve(job.work());
      } catch (error) {
        job.reject(error);
      }
    } while (this.head < this.queue.length && this.now() < ends);
    if (this.head < this.queue.length) setImmediate(this.slice);
    else {
      this.queue.length = 0;
      this.head = 0;
      this.scheduled = false;
    }
  };
}
