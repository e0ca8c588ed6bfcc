/**
 * A real SMTP server in a separate process (`smtp-server-process.ts`), for tests and e2e alike: nothing here
 * imports the test runner. It can be stopped (SMTP down) and started again on the same port, so a storefront
 * configured with its URL finds it back; what it received is read back with mailparser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { simpleParser, type AddressObject } from 'mailparser';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const script = path.join(here, 'smtp-server-process.ts');

/** How long the process may take to listen, and to end after SIGTERM before it is killed. */
const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 2_000;

export interface ReceivedMail {
  /** The SMTP envelope. */
  envelopeFrom: string | null;
  envelopeTo: string[];
  receivedAt: string;
  raw: string;
  subject: string;
  from: string;
  to: string;
  replyTo: string;
  messageId: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  headers: Map<string, unknown>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a : a ? [a] : []).map((x) => x.text).join(', ');

/** Where the server listens the first time (0: a free port) and the folder it writes what it receives to. */
export interface TestSmtpServerOptions {
  port?: number;
  dir?: string;
}

export class TestSmtpServer {
  private child: ChildProcess | null = null;
  private port: number;
  private readonly dir: string;
  /** What it received, one JSON line per message: `readReceivedMail` reads it from any process. */
  readonly file: string;

  constructor(
    private readonly auth: { user: string; pass: string } = { user: 'mailer', pass: 's3cret-pass' },
    options: TestSmtpServerOptions = {},
  ) {
    this.port = options.port ?? 0;
    this.dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'smtp-test-'));
    this.file = path.join(this.dir, 'received.jsonl');
  }

  /** `smtp://user:pass@127.0.0.1:PORT`. */
  get url(): string {
    return `smtp://${encodeURIComponent(this.auth.user)}:${encodeURIComponent(this.auth.pass)}@127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the process (on a free port the first time, on the same port after that). */
  async start(): Promise<this> {
    if (this.child) return this;
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      env: {
        ...process.env,
        SMTP_TEST_PORT: String(this.port),
        SMTP_TEST_FILE: this.file,
        SMTP_TEST_USER: this.auth.user,
        SMTP_TEST_PASS: this.auth.pass,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    this.port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('the SMTP test server did not start')), START_TIMEOUT_MS);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening (\d+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the SMTP test server exited (${code}) before listening`));
      });
    }).catch((err: unknown) => {
      this.child = null;
      child.kill('SIGKILL');
      throw err;
    });
    return this;
  }

  /** Stops the process by its pid: SIGTERM, then SIGKILL if it has not ended soon after. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Stops and starts it again on the same port; what it received stays. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Every message received so far, in order, parsed. */
  async messages(): Promise<ReceivedMail[]> {
    return readReceivedMail(this.file);
  }

  /** Stops the process and removes what it received. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Every message a test SMTP server wrote to `file` so far, in order, parsed (none before the first). */
export async function readReceivedMail(file: string): Promise<ReceivedMail[]> {
  let lines: string[];
  try {
    // A line is whole once its newline is written: one being written as this reads waits for the next read.
    lines = readFileSync(file, 'utf8').split('\n').slice(0, -1).filter(Boolean);
  } catch {
    return [];
  }
  return Promise.all(
    lines.map(async (line) => {
      const entry = JSON.parse(line) as { at: string; from: string | null; to: string[]; raw: string };
      const parsed = await simpleParser(entry.raw);
      return {
        envelopeFrom: entry.from,
        envelopeTo: entry.to,
        receivedAt: entry.at,
        raw: entry.raw,
        subject: parsed.subject ?? '',
        from: addresses(parsed.from),
        to: addresses(parsed.to),
        replyTo: addresses(parsed.replyTo),
        messageId: parsed.messageId ?? '',
        text: parsed.text ?? '',
        html: typeof parsed.html === 'string' ? parsed.html : '',
        attachments: parsed.attachments.map((a) => ({
          filename: a.filename ?? '',
          contentType: a.contentType,
          content: a.content,
        })),
        headers: parsed.headers as Map<string, unknown>,
      };
    }),
  );
}

/** A started test SMTP server. */
export async function startSmtpServer(auth?: { user: string; pass: string }): Promise<TestSmtpServer> {
  return new TestSmtpServer(auth).start();
}
