// The production build started with a configuration the plain test server cannot have: a public
// https:// origin (as behind a TLS proxy) or NODE_ENV=production. Requests go to the address it
// listens on; PUBLIC_URL is only what the site believes its origin to be.
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Config } from "~/kernel/config.server";
import type { Db } from "~/db/client.server";
import type { RunningServer, StartOptions } from "#server/http/app.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { createTestDatabase } from "./database";
import { registerServer, temporaryUploadsDir, TEST_ENV } from "./server";

interface Entry {
  loadConfig(env: NodeJS.ProcessEnv): Config;
  startServer(options: StartOptions): Promise<RunningServer>;
}

export interface ConfiguredServer {
  /** Where the server listens (plain http on loopback). */
  address: URL;
  /** The origin the site was configured with (PUBLIC_URL). */
  publicUrl: URL;
  db: Db;
  config: Config;
  /** Closes the database's connections while the server keeps running; safe to call more than once. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

export async function startConfiguredServer(
  env: Record<string, string>,
  options: Pick<StartOptions, "httpTimeouts" | "log"> = {},
): Promise<ConfiguredServer> {
  const entry = (await import(
    pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href
  )) as Entry;
  const uploads = temporaryUploadsDir(env);
  const config = entry.loadConfig({ ...TEST_ENV, ...uploads.env });
  const database = await createTestDatabase();
  let running: RunningServer;
  try {
    running = await entry.startServer({ log: () => {}, ...options, config, database });
  } catch (error) {
    await database.close();
    uploads.remove();
    throw error;
  }
  const { port } = running.server.address() as AddressInfo;
  const address = new URL(`http://127.0.0.1:${port}`);
  const unregister = registerServer(address, { db: database.db, config: running.config });
  return {
    address,
    publicUrl: running.url,
    db: database.db,
    config: running.config,
    closeDatabase: () => database.disconnect(),
    async close() {
      unregister();
      await running.close();
      // Removed once the server's own connections (its LISTEN) have gone with it.
      await database.close();
      uploads.remove();
    },
  };
}
