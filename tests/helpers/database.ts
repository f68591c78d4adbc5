// A fresh database for one test file: embedded PostgreSQL in memory, or, when TEST_DATABASE_URL
// is set, a new database created on that PostgreSQL server and dropped afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openEmbedded, openPostgres, type Database } from "#server/db/client.server";

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

export async function createTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return openEmbedded(null);
  const name = `ayllu_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), { max: 20 });
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`drop database if exists ${name} with (force)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
