import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

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
  },
});
