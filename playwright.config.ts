import { cpSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

// Chosen once in the main process; workers inherit it through the environment.
process.env.E2E_PORT ??= String(await freePort());
if (!process.env.E2E_DATA_DIR) {
  process.env.E2E_DATA_DIR = path.resolve('test-results', 'e2e-data');
  // Each run starts with no orders or holds (the catalog is kept: generating it is the slow part), so the
  // fair-share limits and the schema always meet a new database.
  rmSync(path.join(process.env.E2E_DATA_DIR, 'db'), { recursive: true, force: true });
  // The studio's tests publish, schedule and add users: the server's live segment folder, drafts, versions and
  // studio records start anew from the shipped files each run, and the shipped files are never written; so do the
  // scanner keys the tickets spec adds.
  for (const dir of ['segments', 'segment-drafts', 'segment-versions', 'studio', 'scanners'])
    rmSync(path.join(process.env.E2E_DATA_DIR, dir), { recursive: true, force: true });
  cpSync('segments', path.join(process.env.E2E_DATA_DIR, 'segments'), { recursive: true });
}
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;
// The e2e server runs as in production, where the studio asks for its key; the studio's spec reads it here.
process.env.E2E_STUDIO_KEY ??= 'e2e-only-studio-key-0123456789';
// The catalog's documents API is on, as where a feed writes the catalog: specs add the events they need through it.
process.env.E2E_CATALOG_ADMIN_KEY ??= 'e2e-only-catalog-admin-key-0123456789';
// The storefront sends its mail to a real SMTP server on a port chosen here, started by the global setup
// (e2e/mail-server.ts); the specs read what it received.
process.env.E2E_SMTP_URL ??= `smtp://e2e-mailer:e2e-only-smtp-pass@127.0.0.1:${await freePort()}`;
process.env.E2E_MAIL_DIR ??= path.resolve('test-results', 'e2e-mail');

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  globalSetup: './e2e/mail-server.ts',
  // A trace is recorded for a retried test only (CI retries once): recording one for every test (DOM snapshots and
  // screenshots at each step) took a quarter of the browser tests' CPU. A failure keeps its screenshot either way.
  use: { baseURL, trace: 'on-first-retry', screenshot: 'only-on-failure', launchOptions: chromium },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions: chromium } },
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions: chromium } },
  ],
  webServer: {
    command: 'node dist/server/main.js',
    url: `${baseURL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      CATALOG_EVENTS: '3000',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      PUBLIC_BASE_URL: baseURL,
      SESSION_SECRET: 'e2e-only-secret-e2e-only-secret-e2e-only',
      STUDIO_KEY: process.env.E2E_STUDIO_KEY,
      CATALOG_ADMIN_KEY: process.env.E2E_CATALOG_ADMIN_KEY,
      SEGMENTS_DIR: path.join(dataDir, 'segments'),
      SMTP_URL: process.env.E2E_SMTP_URL,
    },
  },
});
