/**
 * One load run in a process of its own: reads a `ChildLoadOptions` JSON on stdin, runs a discarded warm-up on
 * the same endpoint, then the measured run, and prints the `LoadResult` as JSON on its last line.
 *
 * Each run gets a fresh load generator because autocannon's speed depends on what it parsed before: after
 * small answers its parser handles 15 KB ones far more slowly, so in one long-lived process the order of the
 * endpoints changed their figures by nearly half. A fresh process with its own warm-up measures every
 * endpoint, and the ceiling, with the same client.
 */
import { settle, SETTLE_MAX_MS } from './children.js';
import { load, rotate, type ChildLoadOptions } from './load.js';

async function main() {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const options = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChildLoadOptions;
  const pattern = options.countMatching === undefined ? undefined : new RegExp(options.countMatching);
  let matched = 0;
  const common = {
    url: options.url,
    connections: options.connections,
    ...(options.headers ? { headers: options.headers } : {}),
  };
  if (options.warmupSeconds > 0) {
    const warmupPaths = options.warmupPaths ?? options.paths;
    await load({ ...common, seconds: options.warmupSeconds, ...(warmupPaths ? { paths: rotate(warmupPaths) } : {}) });
    if (options.settlePid !== undefined) await settle(options.settlePid, SETTLE_MAX_MS);
  }
  const result = await load({
    ...common,
    seconds: options.seconds,
    ...(options.paths ? { paths: rotate(options.paths) } : {}),
    ...(pattern ? { inspect: (body: string) => void (pattern.test(body) && matched++) } : {}),
  });
  process.stdout.write(`\n${JSON.stringify({ ...result, matched })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
