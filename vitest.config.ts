import tsconfigPaths from "vite-tsconfig-paths";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { WITHOUT_DATABASE_UNDER_TEST } from "./tests/helpers/projects";
import {
  EveryTestOnADatabase,
  FailuresFile,
  FileTimings,
  readTimings,
  timingKey,
} from "./tests/helpers/reporters";

/**
 * Longest files first, as the last run measured them (tests/timings.json, written by FileTimings):
 * a long file that started last would run on alone at the end while the other workers idle. Files
 * never timed (new ones) come first of all, so that their time is learnt.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const timings = readTimings();
    const seconds = (file: TestSpecification) =>
      timings[timingKey(file.project.name, file.moduleId)] ?? Number.POSITIVE_INFINITY;
    return (await super.sort(files)).sort((a, b) => seconds(b) - seconds(a));
  }
}

const integration = ["tests/integration/**/*.test.ts"];

// Unit tests once; integration tests once per database: the embedded one (what `npm start` gives
// every new site) always, and PostgreSQL as well when TEST_DATABASE_URL names a server (`.ci/run`
// does). HTTP-level tests run against the production build (global setup builds it when the
// sources changed), each file on its own fresh database (tests/helpers/database.ts).
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true as const,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"] },
      },
      {
        extends: true as const,
        test: { name: "embedded", include: integration, env: { AYLLU_TEST_DATABASE: "embedded" } },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: integration,
                exclude: [...configDefaults.exclude, ...WITHOUT_DATABASE_UNDER_TEST],
                env: { AYLLU_TEST_DATABASE: "postgres" },
              },
            },
          ]
        : []),
    ],
    globalSetup: ["tests/helpers/global-setup.ts"],
    pool: "forks",
    // Three workers: many tests wait (on a socket, a timer, a child process) and a third keeps
    // the cores busy meanwhile. A worker runs its files one after the other in one process and
    // keeps the modules it imported (the server build above all) instead of importing them
    // again for each file: every file opens its own database and server, and what the server
    // keeps in memory is kept per database. A worker serves one project only.
    maxWorkers: 3,
    isolate: false,
    // Limits that only catch a hang: `npm test` runs the browser tests beside these, and a test
    // that sends hundreds of requests can take a minute on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    environment: "node",
    sequence: { sequencer: LongestFirst },
    reporters: ["default", new FileTimings(), new EveryTestOnADatabase(), new FailuresFile()],
  },
});
