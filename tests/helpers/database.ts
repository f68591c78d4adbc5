// A fresh database for one test file. The integration tests run once per database (the Vitest
// projects "embedded" and "postgres" of vitest.config.ts): on the embedded one, a copy of the
// migrated data folder global setup made (tests/helpers/global-setup.ts); on PostgreSQL, a new
// database made from the migrated template database global setup made there, dropped afterwards.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject, test, type TestFunction, type TestOptions } from "vitest";
import { openEmbedded, openPostgres, type Database } from "~/db/client.server";
import { createPostgresDatabase, dropDatabase } from "./postgres-server";

export { createPostgresDatabase, dropDatabase };

/** The database this test file runs on: its Vitest project says which (vitest.config.ts). */
export const databaseUnderTest: "embedded" | "postgres" =
  process.env.AYLLU_TEST_DATABASE === "postgres" ? "postgres" : "embedded";

export const usingPostgres = databaseUnderTest === "postgres";

/**
 * The PostgreSQL server's address (TEST_DATABASE_URL) in the "postgres" project, where a test may
 * create databases of its own; null on the embedded database, even when the variable is set.
 */
export const postgresAdminUrl: string | null = usingPostgres
  ? (process.env.TEST_DATABASE_URL ?? null)
  : null;

if (usingPostgres && !postgresAdminUrl) {
  throw new Error("The postgres project runs only with TEST_DATABASE_URL set (vitest.config.ts)");
}

const DATABASE_NAMES = { embedded: "embedded", postgres: "PostgreSQL" } as const;

/**
 * A test about one database only. Its title says which and why ('[PostgreSQL only: …]'); on the
 * other database it is listed as skipped, and a run on both databases fails if a test ran on
 * neither (tests/helpers/reporters.ts). On a laptop without TEST_DATABASE_URL, the PostgreSQL
 * ones are the skipped ones, counted at the end of the run.
 */
export function testOnlyOn(database: "embedded" | "postgres", why: string) {
  const chosen = test.runIf(databaseUnderTest === database);
  const title = (name: string) => `${name} [${DATABASE_NAMES[database]} only: ${why}]`;
  function only(name: string, body: TestFunction, timeout?: number): void;
  function only(name: string, options: TestOptions, body: TestFunction): void;
  function only(name: string, first: TestFunction | TestOptions, second?: TestFunction | number) {
    if (typeof first === "function") chosen(title(name), first, second as number | undefined);
    else chosen(title(name), first, second as TestFunction);
  }
  return only;
}

/** This test file's database, for the titles of tests that run on both. */
export const databaseName = DATABASE_NAMES[databaseUnderTest];

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
 * A migrated database on the PostgreSQL server: a copy of the template global setup migrated
 * (`CREATE DATABASE … TEMPLATE`, a file copy on the server), not thirty migrations run again.
 */
export async function createMigratedPostgresDatabase(
  adminUrl: string,
  prefix = "ayllu_test",
): Promise<{ name: string; url: string }> {
  return createPostgresDatabase(adminUrl, prefix, inject("postgresTemplate"));
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = postgresAdminUrl;
  if (!adminUrl) return createEmbeddedDatabase();
  const { name, url } = await createMigratedPostgresDatabase(adminUrl);
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
