import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailSender } from '../config/env.js';
import { percentDecoded } from '../../shared/rules/percent-decoding.js';

/** One message as the transport sends it: rendered, addressed, with its stable Message-ID. */
export interface MailEnvelope {
  /** The outbox key (`order_confirmation:ORD-…`): the .eml file names it. */
  key: string;
  from: MailSender;
  to: string;
  replyTo: string;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  date: Date;
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
}

export interface MailTransport {
  /** Resolves once the message was taken (the SMTP server accepted it, or its file is written). */
  send(mail: MailEnvelope): Promise<void>;
  close(): void;
  /** Where mail goes, without credentials: "smtp://mail.example.com:587" or "files in data/mail". */
  readonly description: string;
}

/** nodemailer's timeouts are minutes long by default; the outbox's lease (5 min) must outlast any one send. */
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 60_000 };

function nodemailerMessage(mail: MailEnvelope) {
  return {
    from: { name: mail.from.name ?? '', address: mail.from.address },
    to: mail.to,
    replyTo: mail.replyTo,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: mail.messageId,
    date: mail.date,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.content),
      contentType: a.contentType,
    })),
  };
}

/**
 * SMTP through nodemailer, pooled (a few connections kept open and reused). The URL is `SMTP_URL`: smtp:// or
 * smtps://, credentials in it, and nodemailer's options as query parameters (`?tls.rejectUnauthorized=false`).
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS))
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  const transporter = nodemailer.createTransport(url.toString());
  // As written and as read (the environment refuses credentials whose escapes spell no text).
  const secrets = [url.password, url.username].flatMap((written) => [written, percentDecoded(written) ?? written]);
  return {
    description: `${url.protocol}//${url.host}`,
    async send(mail) {
      try {
        await transporter.sendMail(nodemailerMessage(mail));
      } catch (err) {
        throw new Error(withoutCredentials(err, secrets), { cause: err });
      }
    },
    close: () => transporter.close(),
  };
}

/** `2026-11-27T08:00:00.123Z` → `2026-11-27T08-00-00Z`: sorts by time and is a name every file system takes. */
const fileTime = (at: Date) =>
  at
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
const fileKey = (key: string) => key.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 120);

/**
 * RULES 19.10: without an SMTP server, each message written whole (headers, HTML and text parts, attachments) as an
 * .eml file under `dir`, named by its time and key (`2026-11-27T08-00-00Z-order_confirmation-ORD-ABC.eml`), which
 * any mail program opens. Written under a temporary name and renamed, so a file that is there is whole.
 */
export function emlFileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    description: `.eml files in ${dir}`,
    async send(mail) {
      const info = await transporter.sendMail(nodemailerMessage(mail));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${fileTime(mail.date)}-${fileKey(mail.key)}.eml`);
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, info.message as Buffer);
      await rename(temp, file);
    },
    close: () => transporter.close(),
  };
}

/** The longest error text kept in the outbox. */
const ERROR_TEXT_MAX = 500;

/**
 * An error's message fit for the outbox and the logs: credentials (the URL's user and password, and any
 * `user:pass@` in a URL it quotes) replaced by `[REDACTED]`, cut to a few hundred characters.
 */
export function withoutCredentials(err: unknown, secrets: string[] = []): string {
  let text = err instanceof Error ? err.message : String(err);
  text = text.replace(/\/\/[^/\s@]+@/g, '//[REDACTED]@');
  for (const secret of secrets) if (secret.length >= 3) text = text.replaceAll(secret, '[REDACTED]');
  return text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX - 1)}…` : text;
}
