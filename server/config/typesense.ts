import { z } from 'zod';
import type { ConfigurationOptions } from 'typesense';
import { EnvError } from './env-error.js';

/** What a collection prefix may contain: it becomes part of collection and alias names in URLs. */
export const COLLECTION_PREFIX_PATTERN = /^[A-Za-z0-9_-]*$/;

export interface TypesenseNode {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  /** Path prefix when Typesense sits behind a reverse proxy; empty otherwise. */
  path: string;
}

export interface TypesenseConfig {
  nodes: TypesenseNode[];
  nearestNode?: TypesenseNode;
  /** Admin key: used by the server and the indexer, never sent to browsers. */
  apiKey: string;
  timeoutSeconds: number;
  retries: number;
  retryIntervalSeconds: number;
  collectionPrefix: string;
}

/** Docker env files and shells often set a variable to an empty string to mean "unset". */
const blank = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export function parseNodeUrl(raw: string): TypesenseNode {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`\`${raw}\` is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`\`${raw}\` must be http or https`);
  if (url.username || url.password) throw new Error(`\`${raw}\` must not carry credentials: set TYPESENSE_API_KEY`);
  if (url.search || url.hash) throw new Error(`\`${raw}\` must not have a query or fragment`);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    protocol,
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    path: url.pathname.replace(/\/+$/, ''),
  };
}

const NodeUrlSchema = z.string().transform((raw, ctx) => {
  try {
    return parseNodeUrl(raw);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

const NodeListSchema = z.string().transform((raw, ctx) => {
  const nodes: TypesenseNode[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    try {
      nodes.push(parseNodeUrl(part));
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
    }
  }
  return nodes;
});

/** Every environment variable the Typesense adapter reads, with its default. */
export const TypesenseEnvSchema = z
  .object({
    TYPESENSE_URL: z.preprocess(blank, NodeUrlSchema.optional()),
    TYPESENSE_NODES: z.preprocess(blank, NodeListSchema.optional()),
    TYPESENSE_NEAREST_NODE: z.preprocess(blank, NodeUrlSchema.optional()),
    TYPESENSE_API_KEY: z.preprocess(blank, z.string().optional()),
    TYPESENSE_TIMEOUT_SECONDS: z.preprocess(blank, z.coerce.number().positive().max(600).default(2)),
    TYPESENSE_RETRIES: z.preprocess(blank, z.coerce.number().int().min(0).max(20).default(3)),
    TYPESENSE_RETRY_INTERVAL_SECONDS: z.preprocess(blank, z.coerce.number().positive().max(60).default(0.1)),
    TYPESENSE_COLLECTION_PREFIX: z.preprocess(
      blank,
      z.string().regex(COLLECTION_PREFIX_PATTERN, 'letters, digits, `_` and `-` only').max(64).default(''),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.TYPESENSE_URL && env.TYPESENSE_NODES) {
      ctx.addIssue({
        code: 'custom',
        path: ['TYPESENSE_NODES'],
        message: 'set TYPESENSE_URL or TYPESENSE_NODES, not both',
      });
    }
    const hasNode = env.TYPESENSE_URL !== undefined || (env.TYPESENSE_NODES?.length ?? 0) > 0;
    if (hasNode && !env.TYPESENSE_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['TYPESENSE_API_KEY'], message: 'required when a Typesense node is set' });
    }
    if (!hasNode && env.TYPESENSE_NEAREST_NODE) {
      ctx.addIssue({
        code: 'custom',
        path: ['TYPESENSE_NEAREST_NODE'],
        message: 'needs TYPESENSE_URL or TYPESENSE_NODES as well',
      });
    }
  });
export type TypesenseEnv = z.output<typeof TypesenseEnvSchema>;

/**
 * The Typesense settings of the environment, or null when no node is configured (the embedded engine then
 * serves). Throws an EnvError listing every problem at once.
 */
export function parseTypesenseConfig(
  env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env,
): TypesenseConfig | null {
  const result = TypesenseEnvSchema.safeParse(env);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const parsed = result.data;
  const nodes = parsed.TYPESENSE_URL ? [parsed.TYPESENSE_URL] : (parsed.TYPESENSE_NODES ?? []);
  if (nodes.length === 0) return null;
  return {
    nodes,
    ...(parsed.TYPESENSE_NEAREST_NODE ? { nearestNode: parsed.TYPESENSE_NEAREST_NODE } : {}),
    apiKey: parsed.TYPESENSE_API_KEY!,
    timeoutSeconds: parsed.TYPESENSE_TIMEOUT_SECONDS,
    retries: parsed.TYPESENSE_RETRIES,
    retryIntervalSeconds: parsed.TYPESENSE_RETRY_INTERVAL_SECONDS,
    collectionPrefix: parsed.TYPESENSE_COLLECTION_PREFIX,
  };
}

/** Options for `new Client(…)` of the `typesense` package. */
export function clientOptions(config: TypesenseConfig): ConfigurationOptions {
  return {
    nodes: config.nodes.map((node) => ({ ...node })),
    ...(config.nearestNode ? { nearestNode: { ...config.nearestNode } } : {}),
    apiKey: config.apiKey,
    connectionTimeoutSeconds: config.timeoutSeconds,
    numRetries: config.retries,
    retryIntervalSeconds: config.retryIntervalSeconds,
    // A query parameter would put the admin key into proxy and access logs.
    sendApiKeyAsQueryParam: false,
    logLevel: 'warn',
  };
}

export const nodeUrl = (node: TypesenseNode) => `${node.protocol}://${node.host}:${node.port}${node.path}`;

/** The configuration as it may be printed or logged: everything but the key. */
export function describeTypesenseConfig(config: TypesenseConfig): string {
  const nodes = config.nodes.map(nodeUrl).join(', ');
  const nearest = config.nearestNode ? `, nearest ${nodeUrl(config.nearestNode)}` : '';
  const prefix = config.collectionPrefix ? `, collection prefix \`${config.collectionPrefix}\`` : '';
  return `Typesense at ${nodes}${nearest}${prefix}`;
}
