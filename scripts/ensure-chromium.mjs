#!/usr/bin/env node
/**
 * Makes sure a Chromium for the Playwright journeys is installed. Playwright cannot download
 * its own browsers here, so the journeys use Debian's `chromium` package. When it is missing
 * and we are root, it is installed with apt-get (after `apt-get update`); otherwise this
 * stops with a clear message. CHROMIUM_PATH points at another binary.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function fail(message) {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
}

if (existsSync(path)) {
  console.log(`Chromium: ${path}`);
  process.exit(0);
}

if (process.env.CHROMIUM_PATH) fail(`CHROMIUM_PATH=${path} não existe.`);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasSudo = spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!hasApt) {
  fail(
    'Chromium não encontrado em /usr/bin/chromium e apt-get não existe. Instale o Chromium e defina CHROMIUM_PATH.',
  );
}
if (!isRoot && !hasSudo) {
  fail(
    'Chromium não encontrado. Instale com: sudo apt-get update && sudo apt-get install -y chromium',
  );
}

const prefix = isRoot ? [] : ['sudo'];
const run = (args) => {
  const [cmd, ...rest] = [...prefix, ...args];
  execFileSync(cmd, rest, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
};

console.log('Chromium não encontrado: instalando o pacote chromium do Debian…');
try {
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
} catch {
  fail('A instalação do Chromium falhou. Rode: apt-get update && apt-get install -y chromium');
}
if (!existsSync(path)) fail(`O pacote chromium foi instalado, mas ${path} não existe.`);
console.log(`Chromium instalado: ${path}`);
