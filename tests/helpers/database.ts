// A fresh database for one test file: an embedded PostgreSQL copied from the migrated template
// that global setup made (tests/helpers/global-setup.ts), or, when TEST_DATABASE_URL is set, a new database created on that
// PostgreSQL server and dropped afterwards.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { openEmbedded, openPostgres, type Database } from "~/db/client.server";

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Fills `dir` with a migrated embedded database, as a server that ran there before leaves its
 * DATA_DIR: a copy of the template global setup made, so no process pays for initdb again.
 */
export function copyEmbeddedTemplate(dir: string): string {
  fs.cpSync(inject("embeddedTemplate"), dir, { recursive: true });
  return dir;
}

/**
 * A test's database. `close` also removes it (the folder, or the database on the server);
 * `disconnect` only closes the connections, as when the database goes down under a running
 * server, and leaves the removal to `close`.
 */
export interface TestDatabase extends Database {
  disconnect(): Promise<void>;
}

async function createEmbeddedDatabase(): Promise<TestDatabase> {
  const dir = copyEmbeddedTemplate(fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-prueba-")));
  // openEmbedded finds the migrations applied and opens the copy as npm start would a data folder.
  const database = await openEmbedded(dir);
  let disconnected: Promise<void> | null = null;
  const disconnect = () => (disconnected ??= database.close());
  return {
    ...database,
    disconnect,
    async close() {
      try {
        await disconnect();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Drops a test database on the server of `adminUrl`. pg's Pool.end() resolves before its clients'
 * connections have closed; a forced drop would then kill those backends and their clients would
 * raise an error nobody listens to. So it waits (a few seconds at most) for them to go first.
 */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const cleanup = new pg.Client({ connectionString: adminUrl });
  await cleanup.connect();
  try {
    for (let waited = 0; waited < 5000; waited += 50) {
      const { rows } = await cleanup.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = $1",
        [name],
      );
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cleanup.query(`drop database if exists ${name} with (force)`);
  } finally {
    await cleanup.end();
  }
}

/**
 * A new, empty database on the PostgreSQL server of `adminUrl` (for a server process to migrate);
 * `dropDatabase(adminUrl, name)` removes it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix = "ayllu_test",
): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return createEmbeddedDatabase();
  const { name, url } = await createPostgresDatabase(adminUrl);
  const database = await openPostgres(url, { max: 20 });
  let disconnected: Promise<void> | null = null;
  const disconnect = () => (disconnected ??= database.close());
  return {
    ...database,
    disconnect,
    async close() {
      await disconnect();
      await dropDatabase(adminUrl, name);
    },
  };
}
