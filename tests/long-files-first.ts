/**
 * The order vitest starts the test files in: the few that run long first, then vitest's own
 * order. Files spread over the workers as they free up, so a long file started last runs alone
 * at the end while the other cores wait. Vitest orders by the durations of the previous run when
 * this machine has them (a cache under node_modules), and by file size when it has none, which
 * is every CI run on a clean clone: there the SIGTERM test (a short file that starts two real
 * servers) started at 229 s and ran on alone for the last 40 s of the 297.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took 8 s or more in two full runs here, longest first. A file missing from the
 * list only starts later; a file named here that no longer exists fails the run, so that a
 * rename does not quietly drop it.
 */
export const LONG_FILES = [
  'tests/server/fuzz.test.ts',
  'tests/server/wialon-limits.test.ts',
  'tests/server/database-outage.test.ts',
  'tests/server/pglite-thread.test.ts',
  'tests/server/processes.test.ts',
  'tests/build/build-output.test.ts',
  'tests/server/alert-processes.test.ts',
  'tests/server/sessions.test.ts',
  'tests/server/report-files.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    for (const file of LONG_FILES)
      if (!existsSync(path.join(root, file)))
        throw new Error(`tests/long-files-first.ts cita um arquivo que não existe: ${file}`);
    const rank = (spec: TestSpecification) => {
      const at = LONG_FILES.indexOf(path.relative(root, spec.moduleId).split(path.sep).join('/'));
      return at < 0 ? LONG_FILES.length : at;
    };
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
