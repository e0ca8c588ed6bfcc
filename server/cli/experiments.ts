import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ExperimentResultsSchema,
  ResultsQuerySchema,
  type ExperimentResults,
  type Lift,
} from '../../shared/schemas/experiment-results.js';
import { STUDIO_KEY_HEADER } from '../../shared/schemas/studio.js';
import { parseFlagsConfig } from '../config/flags.js';
import { ExperimentReadout, experimentDefinitions } from '../experiments/readout.js';
import { FlagStore } from '../flags/flags-file.js';
import { AppError } from '../http/errors.js';
import { callStorefront, withCliStore, parseCliArgs } from './cli-support.js';

export interface ExperimentsCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
}

const USAGE = `Usage: npm run experiments -- results <experiment-key> [--since DATE] [--json] [--url URL]

  Reads an experiment's results (RULES 17): per variation the guests exposed, purchasers after their first
  exposure, conversion rate, revenue per guest and the lift over the control with its 95% interval, and the
  sample-ratio check against the configured weights.

  With DATABASE_URL set, from that PostgreSQL. With --url (or STOREFRONT_URL), from a running storefront's
  /api/studio/experiments/:key/results (STUDIO_KEY is sent when set). Otherwise from the embedded store in
  <DATA_DIR>/db, which only a stopped storefront leaves free.`;

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(2)}%`);
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const lift = (l: Lift | null) => (l ? `${signed(l.relative)} [${signed(l.low)}, ${signed(l.high)}]` : '–');

/** The results as a table, the way the studio shows them. */
export function formatResults(r: ExperimentResults): string[] {
  const lines = [
    `Experiment ${r.experiment}${r.feature ? ` (feature ${r.feature})` : ''}` + (r.since ? ` since ${r.since}` : ''),
    `Exposures from ${r.firstExposure ?? '–'} to ${r.lastExposure ?? '–'}`,
    '',
  ];
  const rows = [
    ['variation', 'weight', 'users', 'purchasers', 'conversion [95%]', 'lift [95%]', 'revenue/user', 'lift [95%]'],
    ...r.variations.map((v) => [
      `${v.id} ${v.name}`,
      pct(v.weight),
      String(v.users),
      String(v.purchasers),
      `${pct(v.conversionRate)} [${pct(v.conversionInterval.low)}, ${pct(v.conversionInterval.high)}]`,
      lift(v.lift),
      `$${v.revenuePerUser.toFixed(2)}`,
      lift(v.revenueLift),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  for (const row of rows)
    lines.push(
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
  lines.push(
    '',
    `Sample ratio: chi-square ${r.srm.chiSquare}, p = ${r.srm.pValue}` +
      (r.srm.flagged ? ' — MISMATCH: the split is not what the weights say; do not trust these results' : ' (ok)'),
  );
  if (r.multipleExposures > 0)
    lines.push(`${r.multipleExposures} guests saw more than one variation (counted in their first).`);
  return lines;
}

/** `npm run experiments -- results <key> [--since DATE]`; returns the exit code. */
export async function runExperimentsCli(argv: string[], env: NodeJS.ProcessEnv, io: ExperimentsCliIo): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    {
      since: { type: 'string' },
      json: { type: 'boolean' },
      url: { type: 'string' },
    },
    USAGE,
    io,
  );
  if (!parsed) return 2;
  const [command, key, ...rest] = parsed.positionals;
  if (parsed.values.help || command !== 'results' || !key || rest.length > 0) {
    (parsed.values.help ? io.out : io.err)(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  const since = ResultsQuerySchema.safeParse({ since: parsed.values.since });
  if (!since.success) {
    io.err(since.error.issues.map((i) => i.message).join('; '));
    return 2;
  }
  try {
    const url = parsed.values.url ?? env.STOREFRONT_URL;
    const results = url
      ? await fromServer(url, key, since.data.since, env.STUDIO_KEY, io.fetch ?? fetch)
      : await fromStore(key, since.data.since, env);
    if (parsed.values.json) io.out(JSON.stringify(results, null, 2));
    else for (const line of formatResults(results)) io.out(line);
    return 0;
  } catch (err) {
    // An AppError's message is written for people (an unknown experiment names the known ones).
    io.err(err instanceof AppError || err instanceof Error ? err.message : String(err));
    return 1;
  }
}

async function fromServer(
  base: string,
  key: string,
  since: string | undefined,
  studioKey: string | undefined,
  get: typeof fetch,
): Promise<ExperimentResults> {
  const query = since ? `?${new URLSearchParams({ since })}` : '';
  const body = await callStorefront<unknown>(
    base,
    `/api/studio/experiments/${encodeURIComponent(key)}/results${query}`,
    {
      headers: studioKey ? { [STUDIO_KEY_HEADER]: studioKey } : {},
      fetch: get,
    },
  );
  return ExperimentResultsSchema.parse(body);
}

async function fromStore(key: string, since: string | undefined, env: NodeJS.ProcessEnv): Promise<ExperimentResults> {
  const flags = new FlagStore(parseFlagsConfig(env).file);
  await flags.load();
  return withCliStore(env, (sql) =>
    new ExperimentReadout(sql, () => experimentDefinitions(flags.payload().features)).results(
      key,
      since === undefined ? undefined : new Date(since),
    ),
  );
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  process.exitCode = await runExperimentsCli(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
