// Preloaded into the server by bench/page-sizes.ts --days (node --import): the process's clock runs BENCH_CLOCK_DAYS
// days ahead, so the server draws its pages as it will on that day from the same catalog (its events this week, this
// month). `Date.now()`, `new Date()` and `Date()` read the later clock; a date made from a value is that value, and
// timers and `performance.now()` are left alone.
const days = Number(process.env.BENCH_CLOCK_DAYS ?? '0');
if (!Number.isFinite(days)) throw new Error(`BENCH_CLOCK_DAYS is not a number: ${process.env.BENCH_CLOCK_DAYS}`);
if (days !== 0) {
  const RealDate = Date;
  const later = () => RealDate.now() + days * 86_400_000;
  globalThis.Date = new Proxy(RealDate, {
    construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [later()] : args, newTarget),
    apply: () => new RealDate(later()).toString(),
    get: (target, name, receiver) => (name === 'now' ? later : Reflect.get(target, name, receiver)),
  });
}
