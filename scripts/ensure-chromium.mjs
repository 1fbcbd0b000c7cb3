#!/usr/bin/env node
/**
 * Makes sure the browsers of the Playwright journeys are installed. Playwright cannot download
 * its own browsers here, so the journeys use Debian's packages: `chromium-headless-shell` for
 * most journeys and the full `chromium` for the ones about notifications, which the shell always
 * refuses (playwright.config.ts). A missing package is installed with apt-get (after
 * `apt-get update`) when we are root or have sudo; otherwise this stops with a clear message.
 * CHROMIUM_PATH and CHROMIUM_SHELL_PATH point at other binaries.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browsers = [
  { variable: 'CHROMIUM_PATH', path: '/usr/bin/chromium', pkg: 'chromium' },
  {
    variable: 'CHROMIUM_SHELL_PATH',
    path: '/usr/bin/chromium-headless-shell',
    pkg: 'chromium-headless-shell',
  },
].map((browser) => ({ ...browser, path: process.env[browser.variable] ?? browser.path }));

function fail(message) {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

const missing = browsers.filter((browser) => !existsSync(browser.path));
for (const browser of browsers.filter((b) => !missing.includes(b)))
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
if (!hasApt) {
  fail(
    `Navegador não encontrado (${missing.map((b) => b.path).join(', ')}) e apt-get não existe. Instale ${packages.join(' e ')} e defina ${missing.map((b) => b.variable).join(' e ')}.`,
  );
}
if (!isRoot && !hasSudo) fail(`Navegador não encontrado. Instale com: ${manual}`);

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
  run(['apt-get', 'install', '-y', '--no-install-recommends', ...packages]);
} catch {
  fail(`A instalação falhou. Rode: ${manual}`);
}
for (const browser of missing) {
  if (!existsSync(browser.path))
    fail(`O pacote ${browser.pkg} foi instalado, mas ${browser.path} não existe.`);
  console.log(`${browser.pkg} instalado: ${browser.path}`);
}
