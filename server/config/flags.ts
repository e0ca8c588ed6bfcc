import path from 'node:path';
import { z } from 'zod';
import { EnvError } from './env-error.js';

/** Not a spec figure: the first load waits this long at startup before the embedded flags serve instead. */
export const DEFAULT_TIMEOUT_MS = 5_000;
export const DEFAULT_CLIENT_KEY = 'sdk-storefront';

export interface FlagsConfig {
  /** The embedded flags file: the flags themselves, or the fallback when a remote GrowthBook is set. */
  file: string;
  watch: boolean;
  /** The key browsers use on `/api/features/:clientKey` and `/sub/:clientKey`. */
  clientKey: string;
  remote: { host: string; clientKey: string; timeoutMs: number } | null;
}

/** Docker env files and shells often set a variable to an empty string to mean "unset". */
const blank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const CLIENT_KEY = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, `_` and `-` only')
  .max(200);

const HostSchema = z.string().transform((raw, ctx) => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    ctx.addIssue({ code: 'custom', message: `\`${raw}\` is not a URL` });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    ctx.addIssue({ code: 'custom', message: `\`${raw}\` must be http or https` });
  if (url.search || url.hash || url.username || url.password) {
    ctx.addIssue({
      code: 'custom',
      message: `\`${raw}\` must be a plain base address, without query, fragment or credentials`,
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
});

/** Every environment variable the flag service reads, with its default. */
export const FlagsEnvSchema = z
  .object({
    FLAGS_FILE: z.preprocess(blank, z.string().optional()),
    SEGMENTS_DIR: z.preprocess(blank, z.string().default('segments')),
    SEGMENTS_WATCH: z.preprocess(blank, z.enum(['true', 'false']).default('true')),
    FLAGS_CLIENT_KEY: z.preprocess(blank, CLIENT_KEY.optional()),
    GROWTHBOOK_API_HOST: z.preprocess(blank, HostSchema.optional()),
    GROWTHBOOK_CLIENT_KEY: z.preprocess(blank, CLIENT_KEY.optional()),
    GROWTHBOOK_TIMEOUT_MS: z.preprocess(
      blank,
      z.coerce.number().int().min(100).max(60_000).default(DEFAULT_TIMEOUT_MS),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.GROWTHBOOK_API_HOST && !env.GROWTHBOOK_CLIENT_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['GROWTHBOOK_CLIENT_KEY'],
        message: 'required when GROWTHBOOK_API_HOST is set',
      });
    }
    if (env.GROWTHBOOK_CLIENT_KEY && !env.GROWTHBOOK_API_HOST) {
      ctx.addIssue({
        code: 'custom',
        path: ['GROWTHBOOK_API_HOST'],
        message: 'required when GROWTHBOOK_CLIENT_KEY is set',
      });
    }
  });

/** Throws an EnvError listing every problem at once. */
export function parseFlagsConfig(
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): FlagsConfig {
  const result = FlagsEnvSchema.safeParse(env);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const e = result.data;
  const remote =
    e.GROWTHBOOK_API_HOST && e.GROWTHBOOK_CLIENT_KEY
      ? { host: e.GROWTHBOOK_API_HOST, clientKey: e.GROWTHBOOK_CLIENT_KEY, timeoutMs: e.GROWTHBOOK_TIMEOUT_MS }
      : null;
  return {
    file: path.resolve(e.FLAGS_FILE ?? path.join(e.SEGMENTS_DIR, 'flags.json')),
    watch: e.SEGMENTS_WATCH === 'true',
    // GrowthBook client keys are public (they ship in browser code), so the upstream one may be reused here.
    clientKey: e.FLAGS_CLIENT_KEY ?? remote?.clientKey ?? DEFAULT_CLIENT_KEY,
    remote,
  };
}
