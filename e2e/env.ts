/**
 * Where the journeys' servers run and what they share with the tests.
 *
 * Each Playwright worker has a stack of its own: its Rastro on its own embedded database, its
 * SMTP folder and its copy of the build, so that journeys in two workers never see each
 * other's vehicles, alerts or mail. A worker's stack is chosen by Playwright's
 * TEST_PARALLEL_INDEX (0 in the runner and with one worker), which a worker started to replace
 * a failed one keeps.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/**
 * How many journeys run at once: one stack per two cores. One stack (its server with the demo
 * simulator, a browser, the journey) keeps about 1.3 cores busy. Two on a two-core machine
 * kept both cores busy, each journey ran 1.6 times as long, and the 80 journeys took 361 s
 * against 378 s with one; a journey that aims a click at a moving map and one that races the
 * shell's own calls failed their first try there. E2E_WORKERS sets it.
 */
export const E2E_WORKERS = workersFrom(process.env.E2E_WORKERS);

function workersFrom(value: string | undefined): number {
  if (value === undefined) return Math.max(1, Math.floor(availableParallelism() / 2));
  const workers = Number(value);
  if (!Number.isInteger(workers) || workers < 1 || workers > 16)
    throw new Error(`E2E_WORKERS deve ser um número inteiro de 1 a 16 (recebido: ${value})`);
  return workers;
}
/** The first stack's HTTP port; stack n takes the ports E2E_STACK_SPAN × n above it. */
const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3199);
const E2E_STACK_SPAN = 100;
/** Every stack's folder lives under this one, which the global setup empties. */
export const E2E_TMP = path.resolve('.tmp/e2e');

export interface E2EStack {
  port: number;
  url: string;
  /** Where the journeys' trackers send OsmAnd positions. */
  osmandUrl: string;
  /**
   * Where the journeys' GT06 devices connect (TCP); the other makers' listeners follow it.
   * Clear of the ports just below and above `port`, which journeys' extra servers take.
   */
  gt06Port: number;
  root: string;
  /** The served copy of the build: the update journey changes the worker in it. */
  static: string;
  /** Every e-mail this stack's SMTP server receives, one .eml file each. */
  mail: string;
}

export function e2eStack(slot: number): E2EStack {
  const port = E2E_BASE_PORT + E2E_STACK_SPAN * slot;
  const root = path.join(E2E_TMP, `stack-${slot}`);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    osmandUrl: `http://127.0.0.1:${port - 1}`,
    gt06Port: port + 10,
    root,
    static: path.join(root, 'dist'),
    mail: path.join(root, 'mail'),
  };
}

const stack = e2eStack(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const E2E_PORT = stack.port;
export const E2E_URL = stack.url;
export const E2E_OSMAND_URL = stack.osmandUrl;
export const E2E_GT06_PORT = stack.gt06Port;
export const E2E_ROOT = stack.root;
export const E2E_STATIC = stack.static;
export const E2E_MAIL = stack.mail;

/** The device password the journeys give the trackers they create (devices must prove it). */
export const E2E_DEVICE_PASSWORD = 'senha-da-jornada-1';
export const E2E_SECRET = 'rastro-e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** Debian's Chromium (Playwright cannot download its own here) and how to launch it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Debian's Chromium headless shell: the same Blink and V8 without the full browser around
 * them, which Playwright itself runs headless journeys in. The 66 journeys that run in it took
 * 556 s in the full browser and 380 s in the shell, and the whole Playwright run went from 806 s
 * and 1,410 s of CPU to 612 s and 1,005 s (one run each, in turn). It says 'denied' to every
 * notification question, so the journeys about notifications run in the full browser
 * (playwright.config.ts).
 */
export const CHROMIUM_SHELL_PATH =
  process.env.CHROMIUM_SHELL_PATH ??
  // Where Debian's package could not be installed (scripts/ensure-chromium.mjs says so), the
  // journeys all run in the full browser: slower, and they pass there too.
  (existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : CHROMIUM_PATH);
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
