// Browser tests: Debian's Chromium (never a downloaded browser) against the production build,
// served by `node server.js` on a fresh embedded database for every run, one server per worker
// (tests/e2e/servers.ts).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_WORKERS, e2eBaseUrl, e2ePort } from "./tests/e2e/servers";

// The config is evaluated in the runner and again in each worker; only the runner starts the
// servers, so the folder names only have to be fresh per run.
const run = randomBytes(6).toString("hex");
const dataDirs = Array.from({ length: E2E_WORKERS }, (_, index) =>
  path.join(os.tmpdir(), `ayllu-e2e-${run}-${index}`),
);
// By the time the runner exits the servers have stopped (see gracefulShutdown below).
process.on("exit", () => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  // Files are shared out between the workers; the tests of one file run in order, in one worker.
  fullyParallel: true,
  workers: E2E_WORKERS,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Limits that only catch a hang: the longest journey takes half a minute on an idle machine and
  // ran past 90 s on a shared one with a load average of 27.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    // No baseURL here: each worker's is its own server's, set by tests/e2e/fixtures.ts.
    headless: true,
    locale: "es-BO",
    timezoneId: "America/La_Paz",
    // A failed test keeps its screenshot and error. Traces are off: recording one for every test
    // (kept or not) cost a fifth of the browser tests' processor time. To see a failure step by
    // step, run it again with `npx playwright test <file> --trace on`.
    trace: "off",
    screenshot: "only-on-failure",
    video: "off",
    // Journeys run as for someone who asked for less motion: no smooth scrolling or transitions
    // to wait out. The landing pages, where the site moves, run with motion (landing.spec.ts).
    reducedMotion: "reduce",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  // Started one after the other; the first builds the site when its sources changed.
  webServer: dataDirs.map((dataDir, index) => ({
    command: index === 0 ? "node scripts/ensure-build.mjs && node server.js" : "node server.js",
    url: `${e2eBaseUrl(index)}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    // server.js closes the embedded database cleanly on SIGTERM.
    gracefulShutdown: { signal: "SIGTERM" as const, timeout: 15_000 },
    env: {
      PORT: String(e2ePort(index)),
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      LOGIN_RATE_LIMIT: "1000",
      // The events and content browser tests sign in as these admins.
      ADMIN_EMAILS:
        "admin-e2e@ayllu.test,admin-contenido@ayllu.test,admin-contenido-2@ayllu.test,admin-sitio@ayllu.test",
    },
  })),
});
