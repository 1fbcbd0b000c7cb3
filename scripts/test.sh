#!/usr/bin/env bash
# `npm test`: every check, in the order that fails fastest. Lint (zero warnings), the
# type-check of src, sw, server and tests, the vitest suites (unit, client, server on PGlite
# and, when one answers on 127.0.0.1:5432, PostgreSQL; the build output), then the built PWA
# and the real server in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m▶ %s\033[0m\n' "$1"; }

step 'lint'
npx biome check --error-on-warnings .
step 'type-check (src, sw, server, tests)'
npm run --silent typecheck
step 'vitest'
npx vitest run
step 'build'
npx vite build --logLevel warn
step 'chromium'
node scripts/ensure-chromium.mjs
step 'playwright'
npx playwright test
