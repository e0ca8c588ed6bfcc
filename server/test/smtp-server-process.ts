/**
 * A real SMTP server for tests, run as a process of its own (`server/test/smtp-server.ts` starts and stops it):
 * the `smtp-server` package on 127.0.0.1, on SMTP_TEST_PORT (0: a free one), taking any login or only
 * SMTP_TEST_USER/SMTP_TEST_PASS when set. Each message received is appended to SMTP_TEST_FILE as one JSON line
 * `{ at, from, to, raw }`; its first line on stdout is `listening <port>`.
 */
import { appendFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.SMTP_TEST_PORT ?? 0);
const file = process.env.SMTP_TEST_FILE;
const user = process.env.SMTP_TEST_USER;
const pass = process.env.SMTP_TEST_PASS;
if (!file) throw new Error('SMTP_TEST_FILE is required');

const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  hideSTARTTLS: true,
  logger: false,
  onAuth(auth, _session, callback) {
    if (user !== undefined && (auth.username !== user || auth.password !== pass))
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    callback(null, { user: auth.username });
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const line = {
        at: new Date().toISOString(),
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      };
      // Written before the server answers 250: a message the client counts as sent is on disk.
      appendFileSync(file, `${JSON.stringify(line)}\n`);
      callback();
    });
  },
});

server.on('error', (err) => console.error(`smtp test server: ${err.message}`));
server.listen(port, '127.0.0.1', () => {
  const address = server.server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : port}`);
});

const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
