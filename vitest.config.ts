import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest beside the browser tests (`.ci/run`, 2026-11-25: 17–76 s each;
 * they send thousands of requests, wait out timers or start server processes), longest first.
 */
const LONGEST_FIRST = [
  "malformed-bodies",
  "backup-bucket",
  "backup",
  "security",
  "mail-routes",
  "publications-live",
  "page-cache",
  "process",
  "two-nodes",
  "publications",
  "admin-cli",
  "admin",
  "data-cli",
  "sessions",
  "certificates",
].map((name) => `/tests/integration/${name}.test.ts`);

/**
 * Vitest starts the files it has timed before longest first; on a fresh clone it has timed none
 * and starts the largest files first, so the longest (small files that wait) came last and ran
 * on alone: malformed-bodies.test.ts (76 s) was the last file to finish in one `.ci/run`. These
 * start first; the rest follow in Vitest's own order.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// Unit and integration tests. HTTP-level tests run against the production build (global setup
// builds it when the sources changed), each file on its own fresh database.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["tests/integration/**/*.test.ts", "tests/unit/**/*.test.{ts,tsx}"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    // Three workers: many tests wait (on a socket, a timer, a child process) and a third keeps
    // the cores busy meanwhile. A worker runs its files one after the other in one process and
    // keeps the modules it imported (the server build above all) instead of importing them
    // again for each file: every file opens its own database and server, and what the server
    // keeps in memory is kept per database.
    maxWorkers: 3,
    isolate: false,
    // Limits that only catch a hang: `npm test` runs the browser tests beside these, and a test
    // that sends hundreds of requests can take a minute on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    environment: "node",
    sequence: { sequencer: LongestFirst },
  },
});
