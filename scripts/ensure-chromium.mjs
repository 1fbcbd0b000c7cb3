#!/usr/bin/env node
/**
 * Makes sure the browsers of the Playwright journeys are installed. Playwright cannot download
 * its own browsers here, so the journeys use Debian's packages: `chromium-headless-shell` for
 * most journeys and the full `chromium` for the ones about notifications, which the shell always
 * refuses (playwright.config.ts). A missing package is installed with apt-get (after
 * `apt-get update`) when we are root or have sudo. The full browser is required: without it
 * this stops with a clear message. The shell only makes the journeys cheaper: without it they
 * all run in the full browser (e2e/env.ts), and this says so. CHROMIUM_PATH and
 * CHROMIUM_SHELL_PATH point at other binaries.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const full = {
  variable: 'CHROMIUM_PATH',
  path: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  pkg: 'chromium',
};
const shell = {
  variable: 'CHROMIUM_SHELL_PATH',
  path: process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell',
  pkg: 'chromium-headless-shell',
};

function fail(message) {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

function withoutShell(why) {
  console.warn(
    `\n⚠ ${why} As jornadas rodam todas no Chromium completo (${full.path}), mais devagar.\n`,
  );
}

const missing = [full, shell].filter((browser) => !existsSync(browser.path));
for (const browser of [full, shell].filter((b) => !missing.includes(b)))
  console.log(`${browser.pkg}: ${browser.path}`);
if (missing.length === 0) process.exit(0);
for (const browser of missing) {
  if (process.env[browser.variable]) fail(`${browser.variable}=${browser.path} não existe.`);
}

const packages = missing.map((browser) => browser.pkg);
const manual = `sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasSudo = spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!hasApt || (!isRoot && !hasSudo)) {
  const how = hasApt
    ? `Instale com: ${manual}`
    : `apt-get não existe: instale ${packages.join(' e ')} e defina ${missing.map((b) => b.variable).join(' e ')}.`;
  if (missing.includes(full)) fail(`Chromium não encontrado em ${full.path}. ${how}`);
  withoutShell(`Headless shell do Chromium não encontrado em ${shell.path}. ${how}`);
  process.exit(0);
}

const prefix = isRoot ? [] : ['sudo'];
const run = (args) => {
  const [cmd, ...rest] = [...prefix, ...args];
  execFileSync(cmd, rest, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
};

console.log(`Navegador não encontrado: instalando ${packages.join(' e ')} do Debian…`);
try {
  run(['apt-get', 'update']);
} catch {
  // A stale or unreachable mirror: the install below may still find the package.
  console.warn('apt-get update falhou; tentando instalar assim mesmo.');
}
// One package at a time: a mirror without the shell must not keep the full browser out.
for (const browser of missing) {
  try {
    run(['apt-get', 'install', '-y', '--no-install-recommends', browser.pkg]);
  } catch {
    // The check below says what is missing.
  }
  if (existsSync(browser.path)) {
    console.log(`${browser.pkg} instalado: ${browser.path}`);
  } else if (browser === full) {
    fail(`A instalação do Chromium falhou. Rode: ${manual}`);
  } else {
    withoutShell(`A instalação do ${shell.pkg} falhou.`);
  }
}
