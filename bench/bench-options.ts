import { parseArgs } from 'node:util';

/** What `npm run bench` was asked for (see bench/run.ts for every option). */
export interface BenchOptions {
  /** Catalog sizes in events, in the order they run. */
  sizes: number[];
  /** Whether `--sizes` was given (the live catalog run otherwise measures a million events). */
  sizesGiven: boolean;
  rounds: number;
  seconds: number;
  /** Whether `--seconds` was given (the events run measures longer rounds otherwise). */
  secondsGiven: boolean;
  warmupSeconds: number;
  lighthouseRuns: number;
  timeLimitMinutes: number;
  engine: boolean;
  faults: boolean;
  cold: boolean;
  catalog: boolean;
  events: boolean;
  /** Only the studio's records (bench/studio.ts). */
  studio: boolean;
  /** Simulated guests of the events run's experiment. */
  guests: number;
  noLighthouse: boolean;
  noWrite: boolean;
  /** The command line as typed, for the results. */
  command: string;
}

const DEFAULT_SIZES = '20000';
const DEFAULT_SECONDS = 2;
/** The events run's experiment: 20,000 guests, about 10,000 per variation. */
const DEFAULT_GUESTS = 20_000;
/** `--scale` and `--cold`: 20,000, 200,000 and 1,000,000 events. */
const SCALE_SIZES = '20000,200000,1000000';
const SMALLEST_SIZE = 100;
/** The default time limit: a base, more per size and more per million events. */
const TIME_LIMIT_BASE_MINUTES = 10;
const TIME_LIMIT_PER_SIZE_MINUTES = 3;
const TIME_LIMIT_PER_MILLION_MINUTES = 20;

export function readBenchOptions(args: string[] = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      scale: { type: 'boolean', default: false },
      sizes: { type: 'string' },
      rounds: { type: 'string', default: '5' },
      seconds: { type: 'string' },
      warmup: { type: 'string', default: '3' },
      'lighthouse-runs': { type: 'string', default: '1' },
      engine: { type: 'boolean', default: false },
      faults: { type: 'boolean', default: false },
      cold: { type: 'boolean', default: false },
      catalog: { type: 'boolean', default: false },
      events: { type: 'boolean', default: false },
      studio: { type: 'boolean', default: false },
      guests: { type: 'string', default: String(DEFAULT_GUESTS) },
      'no-lighthouse': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      'time-limit': { type: 'string' },
    },
  });
  const positive = (name: 'rounds' | 'seconds' | 'time-limit' | 'lighthouse-runs' | 'guests'): number => {
    const n = Number(values[name]);
    if (!(n > 0)) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const sizes = (values.sizes ?? (values.scale || values.cold ? SCALE_SIZES : DEFAULT_SIZES)).split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < SMALLEST_SIZE) throw new Error(`--sizes: "${s}" is not a catalog size`);
    return n;
  });
  const rounds = Math.round(positive('rounds'));
  const seconds = values.seconds === undefined ? DEFAULT_SECONDS : positive('seconds');
  const warmupSeconds = Number(values.warmup);
  const lighthouseRuns = Math.round(positive('lighthouse-runs'));
  const timeLimitMinutes = values['time-limit']
    ? positive('time-limit')
    : TIME_LIMIT_BASE_MINUTES +
      sizes.reduce(
        (m, events) => m + TIME_LIMIT_PER_SIZE_MINUTES + (TIME_LIMIT_PER_MILLION_MINUTES * events) / 1_000_000,
        0,
      );
  return {
    sizes,
    sizesGiven: values.sizes !== undefined,
    rounds,
    seconds,
    secondsGiven: values.seconds !== undefined,
    warmupSeconds,
    lighthouseRuns,
    timeLimitMinutes,
    engine: values.engine,
    faults: values.faults,
    cold: values.cold,
    catalog: values.catalog,
    events: values.events,
    studio: values.studio,
    guests: Math.round(positive('guests')),
    noLighthouse: values['no-lighthouse'],
    noWrite: values['no-write'],
    command: ['npm run bench', ...(args.length > 0 ? ['--', ...args] : [])].join(' '),
  };
}
