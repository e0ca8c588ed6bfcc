import { mkdirSync, rmSync } from 'node:fs';
import { readReceivedMail, TestSmtpServer, type ReceivedMail } from '../server/test/smtp-server.js';

/**
 * The e2e run's mailbox: a real SMTP server process (server/test/smtp-server.ts) on the address playwright.config.ts
 * chose (`E2E_SMTP_URL`, given to the storefront as `SMTP_URL`), writing what it receives under `E2E_MAIL_DIR`.
 * Playwright starts the storefront before this global setup; a mail queued meanwhile is sent once the server
 * listens, as the outbox tries again (RULES 19.4), and no spec buys anything before then. What this returns is the
 * global teardown.
 */
export default async function startMailbox(): Promise<() => Promise<void>> {
  const url = new URL(process.env.E2E_SMTP_URL!);
  const dir = process.env.E2E_MAIL_DIR!;
  // Each run reads only its own mail.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await new TestSmtpServer(
    { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    { port: Number(url.port), dir },
  ).start();
  // The specs' workers start after the global setup, with its environment.
  process.env.E2E_MAIL_FILE = server.file;
  return () => server.stop();
}

/** Every mail the e2e mailbox received so far, in order. */
export function receivedMail(): Promise<ReceivedMail[]> {
  const file = process.env.E2E_MAIL_FILE;
  if (!file) throw new Error('no e2e mailbox: playwright.config.ts starts it in its global setup');
  return readReceivedMail(file);
}
