// The production build, started on a free port with a fresh database and the development
// sign-in provider, for tests that speak HTTP to it.
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "#server/config.server";
import type { Database, Db } from "#server/db/client.server";
import type { RunningServer, StartOptions } from "#server/http/app.server";
import { PROJECT_ROOT } from "#server/paths.server";
import { createTestDatabase } from "./database";

interface Entry {
  loadConfig(env: NodeJS.ProcessEnv): Config;
  startServer(options: StartOptions): Promise<RunningServer>;
}

export const TEST_SESSION_SECRET = "test-secret-test-secret-test-secret-0123456789";

/** The environment every test server starts from: a free port, no demo content, no rate limit to speak of. */
export const TEST_ENV: Record<string, string> = {
  NODE_ENV: "test",
  PORT: "0",
  HOST: "127.0.0.1",
  SESSION_SECRET: TEST_SESSION_SECRET,
  SEED_DEMO: "0",
  LOGIN_RATE_LIMIT: "10000",
  SITE_TIMEZONE: "America/La_Paz",
};

export interface TestServer {
  url: URL;
  db: Db;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const entry = (await import(
    pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href
  )) as Entry;
  const config = entry.loadConfig({ ...TEST_ENV, ...env });
  const database = await createTestDatabase();
  const running = await entry.startServer({ config, database, log: () => {} });
  return {
    url: running.url,
    db: database.db,
    database,
    config: running.config,
    async close() {
      await running.close();
      await database.close();
    },
  };
}
