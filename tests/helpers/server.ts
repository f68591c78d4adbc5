// The production build, started on a free port with a fresh database and the development
// sign-in provider, for tests that speak HTTP to it.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type pg from "pg";
import type { Config } from "~/kernel/config.server";
import * as schema from "~/db/schema.server";
import type { Database, Db } from "~/db/client.server";
import type { RunningServer, StartOptions } from "#server/http/app.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
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

/**
 * An uploads folder (and a private one) of the test server's own, removed with it: files are named
 * by content, so two servers sharing a folder would remove each other's (each sees only its own
 * database).
 */
export function temporaryUploadsDir(env: Record<string, string>): {
  env: Record<string, string>;
  remove(): void;
} {
  const made: string[] = [];
  const folder = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
  // The private files (decision 048) too: never the working folder's ./data/privado.
  const own = {
    ...env,
    UPLOADS_DIR: env.UPLOADS_DIR ?? folder("ayllu-subidas-"),
    PRIVATE_DIR: env.PRIVATE_DIR ?? folder("ayllu-privado-"),
  };
  return {
    env: own,
    remove: () => {
      for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  url: URL;
  db: Db;
  database: Database;
  config: Config;
  /**
   * Resolves once the server has heard of every write committed before the call (a test's own,
   * made through the models outside the server's requests, say): its page cache and what it keeps
   * in memory are up to date. On PostgreSQL the notifications reach it a moment after the commit,
   * in commit order, on the one connection it listens on, so a marker sent now arrives after them.
   */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** What a sign-in fixture needs to open a session on a server this test process started. */
export interface ReachableServer {
  db: Db;
  config: Config;
  /** See TestServer.settled. */
  settled?: () => Promise<void>;
}

/** The test's own channel: a marker on it changes nothing the server keeps. */
const SETTLED_CHANNEL = "ayllu_prueba_al_dia";

/**
 * TestServer.settled for a server on `database`. Every channel a process listens to arrives on
 * its one listening connection, in commit order, so a marker sent now on the test's own channel
 * arrives after the notifications of every write committed before.
 */
async function settling(
  database: Database,
): Promise<(() => Promise<void>) & { stop(): Promise<void> }> {
  const waiting = new Map<string, () => void>();
  const stop = await database.listen(SETTLED_CHANNEL, (marker) => waiting.get(marker)?.());
  const settled = async () => {
    const marker = randomUUID();
    const arrived = new Promise<void>((resolve) => waiting.set(marker, resolve));
    try {
      await database.db.execute(sql`select pg_notify(${SETTLED_CHANNEL}, ${marker})`);
      await arrived;
    } finally {
      waiting.delete(marker);
    }
  };
  return Object.assign(settled, { stop });
}

// Keyed by the origin requests go to, which is the public origin except for configured servers.
const started = new Map<string, ReachableServer>();

/** Records a server started in this process, until `close`. */
export function registerServer(address: URL, server: ReachableServer): () => void {
  started.set(address.origin, server);
  return () => {
    if (started.get(address.origin) === server) started.delete(address.origin);
  };
}

/** The server listening at `address`, when this process started it; null for a child process. */
export function serverAt(address: URL): ReachableServer | null {
  return started.get(address.origin) ?? null;
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    heartbeatMs?: number;
    /** The server's clock (StartOptions.now). */
    now?: () => Date;
    /** Told the text of every statement the server sends through Drizzle. */
    onQuery?: (query: string) => void;
    /**
     * Another test server's database, as a second process or machine of one site would share it;
     * it stays open when this server closes.
     */
    database?: Database;
    /** How long the start-up check waits for the object store (StartOptions.storeCheckMs). */
    storeCheckMs?: number;
  } = {},
): Promise<TestServer> {
  const entry = (await import(
    pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href
  )) as Entry;
  const uploads = temporaryUploadsDir(env);
  const config = entry.loadConfig({ ...TEST_ENV, ...uploads.env });
  const { onQuery, database: shared, ...startOptions } = options;
  const opened = shared ?? (await createTestDatabase());
  const database = onQuery ? { ...opened, db: observed(opened, onQuery) } : opened;
  const running = await entry.startServer({ config, database, log: () => {}, ...startOptions });
  // Its markers go through the unobserved handle: they are not the server's statements.
  const settled = await settling(opened);
  const unregister = registerServer(running.url, {
    db: database.db,
    config: running.config,
    settled,
  });
  return {
    url: running.url,
    db: database.db,
    database,
    config: running.config,
    settled,
    async close() {
      unregister();
      await settled.stop();
      await running.close();
      if (!shared) await database.close();
      uploads.remove();
    },
  };
}

/** The same connection (PGlite or pool) behind a second Drizzle handle that reports each statement. */
function observed(database: Database, onQuery: (query: string) => void): Db {
  const logger = { logQuery: (query: string) => onQuery(query) };
  const client = (database.db as unknown as { $client: unknown }).$client;
  return (database.kind === "embedded"
    ? drizzlePglite({ client: client as PGlite, schema, logger })
    : drizzleNodePg({ client: client as pg.Pool, schema, logger })) as unknown as Db;
}
