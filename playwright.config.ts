import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, CHROMIUM_SHELL_PATH, E2E_URL, E2E_WORKERS } from './e2e/env';

/**
 * Journeys that need a browser that can still be asked about notifications: the invitation,
 * the permission prompt and pushes shown by the worker, and the account page's notifications
 * section seen offline. They run in the full Chromium; the others in its headless shell, which
 * answers 'denied' to every notification question and costs less CPU (e2e/env.ts).
 */
const FULL_BROWSER = ['push.spec.ts', 'offline.spec.ts'];
const viewport = { width: 1366, height: 800 };

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // A file's journeys run in order in one worker; files spread over the workers, each worker
  // against a stack of its own (e2e/env.ts), whose address each worker reads when it loads
  // this file.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: process.env.CI ? 1 : 0,
  // A journey is many pages and reloads: 30 s left the longest ones (offline pickers, a
  // Cliente's read-only tour) a second from the limit on a loaded machine, and CI failed there.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '.tmp/e2e/results',
  use: {
    baseURL: E2E_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // A fresh browser context installs the service worker and precaches the whole app (321
    // files, 3.4 MB) while the journey runs: signing in and opening a list took about 18 s of
    // CPU (Chromium and server) with it and 11 s without, for journeys that never use it.
    // Journeys run as a browser without the worker does (as every page is before the worker
    // takes control); the ones about the worker (offline, push, updates, kept tiles) turn it
    // on with `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
    // Recording a trace costs every action a DOM snapshot and a screenshot, kept or not. In CI
    // a failed journey runs again and records then; locally, where it does not, keep the
    // trace of a failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: FULL_BROWSER,
      use: {
        viewport,
        launchOptions: { executablePath: CHROMIUM_SHELL_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      name: 'desktop-notifications',
      testMatch: FULL_BROWSER,
      use: { viewport, launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});
