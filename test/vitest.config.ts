import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each file gets its own TMPDIR and fails if it leaves anything in it.
    setupFiles: ['test/support/tmpdirGuard.ts'],
    // Test files share their worker's module cache instead of importing client-node, x509, yaml and
    // the templates again for each file (that import was a third of the suite's CPU). Nothing in the
    // tests patches modules (no vi.mock) or leaves globals changed, so sharing is safe.
    isolate: false,
    // One worker more than the cores: many tests wait on child processes (the CLI, kubectl, skopeo)
    // and loopback servers, and vitest's default (cores − 1) left one of two cores idle.
    maxWorkers: availableParallelism() + 1,
  },
});
