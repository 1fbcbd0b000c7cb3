/** Where the journeys' server runs and what it shares with the tests. */
import path from 'node:path';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Where the journeys' trackers send OsmAnd positions. */
export const E2E_OSMAND_URL = `http://127.0.0.1:${E2E_PORT - 1}`;
/**
 * Where the journeys' GT06 devices connect (TCP); the other makers' listeners follow it. Clear
 * of the ports below E2E_PORT and just above it, which other journeys' servers take.
 */
export const E2E_GT06_PORT = E2E_PORT + 10;
/** The device password the journeys give the trackers they create (devices must prove it). */
export const E2E_DEVICE_PASSWORD = 'senha-da-jornada-1';
export const E2E_ROOT = path.resolve('.tmp/e2e');
/** The served copy of the build: the update journey changes the worker in it. */
export const E2E_STATIC = path.join(E2E_ROOT, 'dist');
/** Every e-mail the local SMTP server receives, one .eml file each. */
export const E2E_MAIL = path.join(E2E_ROOT, 'mail');
export const E2E_SECRET = 'rastro-e2e-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** Debian's Chromium (Playwright cannot download its own here) and how to launch it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
