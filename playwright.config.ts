// Browser tests: Debian's Chromium (never a downloaded browser) against the production build,
// served by `node server.js` on a fresh embedded database for every run.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${PORT}`;
// The config is evaluated in the runner and again in each worker; only the runner starts the
// server, so the folder name only has to be fresh per run.
const dataDir = path.join(os.tmpdir(), `ayllu-e2e-${randomBytes(6).toString("hex")}`);
// By the time the runner exits the server has stopped (see gracefulShutdown below).
process.on("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    headless: true,
    locale: "es-BO",
    timezoneId: "America/La_Paz",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    video: "off",
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
  webServer: {
    command: "node scripts/ensure-build.mjs && node server.js",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    stderr: "pipe",
    // server.js closes the embedded database cleanly on SIGTERM.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      SEED_DEMO: "1",
      LOGIN_RATE_LIMIT: "1000",
      // The events and content browser tests sign in as these admins.
      ADMIN_EMAILS: "admin-e2e@ayllu.test,admin-contenido@ayllu.test,admin-contenido-2@ayllu.test",
    },
  },
});
