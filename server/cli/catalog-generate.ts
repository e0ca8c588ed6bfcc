import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { generateCatalog } from '../catalog/generate/generate-catalog.js';

const ArgsSchema = z.object({
  events: z.coerce.number().int().min(100).max(5_000_000).default(20_000),
  seed: z.coerce.number().int().min(0).default(22791),
  // A real calendar day: 2026-13-45 and 2026-02-29 have the shape and are refused.
  start: z.iso
    .date({ error: 'start must be a real date, YYYY-MM-DD' })
    .default(() => new Date().toISOString().slice(0, 10)),
  out: z
    .string()
    .min(1)
    .default(path.join(process.env.DATA_DIR ?? 'data', 'catalog')),
});

const usage =
  'usage: npm run catalog -- [--events N] [--seed S] [--start YYYY-MM-DD] ' +
  '[--out DIR]   (or: npm run catalog -- import DIR|FILE…)';

/** `npm run catalog -- [--events N] …` (run from `../cli.ts`): generates the demo catalog; the exit code. */
export async function runGenerateCli(args: string[]): Promise<number> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args,
      options: {
        events: { type: 'string' },
        seed: { type: 'string' },
        start: { type: 'string' },
        out: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    console.error(usage);
    return 2;
  }
  const parsed = ArgsSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
    console.error(usage);
    return 2;
  }
  const { events, seed, start, out } = parsed.data;
  const began = performance.now();
  const heapBefore = process.memoryUsage().rss;
  console.log(`generating ${events} events (seed ${seed}, from ${start}) into ${path.resolve(out)}`);
  const manifest = await generateCatalog({ events, seed, start, outDir: out, log: (m) => console.log(`  ${m}`) });
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  const peak = Math.round(Math.max(heapBefore, process.memoryUsage().rss) / 2 ** 20);
  console.log(`done in ${seconds} s (rss ${peak} MiB):`, JSON.stringify(manifest.counts));
  return 0;
}
