import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../http/errors.js';
import { listMail, MAIL_STATES, retryMail, type MailRecord, type MailState } from '../mail/outbox.js';
import { ADMIN_KEY_HEADER } from '../http/security.js';
import { callStorefront, withCliStore, parseCliArgs } from './cli-support.js';
import { MailListQuerySchema } from '../mail/routes.js';

export interface MailCliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  fetch?: typeof fetch;
  now?: () => Date;
}

const USAGE = `Usage: npm run mail -- outbox [--state S] [--limit N] [--json] [--url URL]
       npm run mail -- retry ID [--url URL]

  outbox  lists the mail outbox, newest first: id, state, attempts, kind, recipient, when it was queued, its
          next attempt (queued) or when it was sent, and the last error. --state is one of
          ${MAIL_STATES.join(', ')}; --limit at most 500 (default 50).
  retry   queues a failed message again, to go at once (a queued one is made due now).

  With DATABASE_URL set, from that PostgreSQL. With --url (or STOREFRONT_URL), through a running storefront's
  /api/admin/mail with CATALOG_ADMIN_KEY. Otherwise from the embedded store in <DATA_DIR>/db, which only a
  stopped storefront leaves free.`;

/** The time as operators read it: to the second, UTC. */
const at = (iso: string | null) => (iso ? iso.replace(/\.\d+Z$/, 'Z') : '–');

/** The outbox as a table. */
export function formatOutbox(records: MailRecord[]): string[] {
  if (records.length === 0) return ['The outbox is empty.'];
  const rows = [
    ['id', 'state', 'attempts', 'kind', 'to', 'created', 'next attempt / sent', 'last error'],
    ...records.map((m) => [
      String(m.id),
      m.state,
      String(m.attempts),
      m.kind,
      m.to,
      at(m.createdAt),
      m.state === 'sent' ? `sent ${at(m.sentAt)}` : m.state === 'queued' ? at(m.nextAttemptAt) : '–',
      m.lastError ?? '',
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) =>
    row
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  );
}

type Command = { name: 'outbox'; state?: MailState; limit: number } | { name: 'retry'; id: number };

/** `npm run mail -- outbox …` or `npm run mail -- retry ID`; returns the exit code. */
export async function runMailCli(argv: string[], env: NodeJS.ProcessEnv, io: MailCliIo): Promise<number> {
  const parsed = parseCliArgs(
    argv,
    {
      state: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      url: { type: 'string' },
    },
    USAGE,
    io,
  );
  if (!parsed) return 2;
  if (parsed.values.help) {
    io.out(USAGE);
    return 0;
  }
  const [name, ...rest] = parsed.positionals;
  let command: Command;
  if (name === 'outbox' && rest.length === 0) {
    const query = MailListQuerySchema.safeParse({ state: parsed.values.state, limit: parsed.values.limit });
    if (!query.success) {
      io.err(query.error.issues.map((i) => i.message).join('; '));
      return 2;
    }
    command = { name, ...query.data };
  } else if (name === 'retry' && rest.length === 1 && /^[1-9]\d*$/.test(rest[0]!)) {
    command = { name, id: Number(rest[0]) };
  } else {
    io.err(name === 'retry' ? `retry takes one mail id (a whole number)\n\n${USAGE}` : USAGE);
    return 2;
  }
  try {
    const url = parsed.values.url ?? env.STOREFRONT_URL;
    const answer = url
      ? await fromServer(url, command, env.CATALOG_ADMIN_KEY, io.fetch ?? fetch)
      : await fromStore(command, env, io.now?.() ?? new Date());
    if (parsed.values.json) io.out(JSON.stringify(answer, null, 2));
    else if (Array.isArray(answer)) for (const line of formatOutbox(answer)) io.out(line);
    else io.out(`Mail ${answer.id} (${answer.kind} to ${answer.to}) is queued to go at once.`);
    return 0;
  } catch (err) {
    io.err(err instanceof AppError || err instanceof Error ? err.message : String(err));
    return 1;
  }
}

async function fromServer(
  base: string,
  command: Command,
  adminKey: string | undefined,
  get: typeof fetch,
): Promise<MailRecord[] | MailRecord> {
  const query = new URLSearchParams();
  if (command.name === 'outbox') {
    if (command.state) query.set('state', command.state);
    query.set('limit', String(command.limit));
  }
  const body = await callStorefront<{ mail?: MailRecord[] | MailRecord }>(
    base,
    command.name === 'retry' ? `/api/admin/mail/${command.id}/retry` : `/api/admin/mail?${query}`,
    {
      method: command.name === 'retry' ? 'POST' : 'GET',
      headers: adminKey ? { [ADMIN_KEY_HEADER]: adminKey } : {},
      fetch: get,
    },
  );
  if (!body?.mail) throw new Error(`${new URL(base).origin} answered without the mail`);
  return body.mail;
}

function fromStore(command: Command, env: NodeJS.ProcessEnv, now: Date): Promise<MailRecord[] | MailRecord> {
  return withCliStore<MailRecord[] | MailRecord>(env, (sql) =>
    command.name === 'retry'
      ? retryMail(sql, command.id, now)
      : listMail(sql, { state: command.state, limit: command.limit }),
  );
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  process.exitCode = await runMailCli(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
