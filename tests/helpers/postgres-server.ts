// Databases of their own on the PostgreSQL server of TEST_DATABASE_URL, for test files and for the
// server processes some tests start. No Vitest imports: global setup uses these too.
import { randomBytes } from "node:crypto";
import pg from "pg";

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
 * A new database on the PostgreSQL server of `adminUrl`: empty (for a server process to migrate),
 * or a copy of `template`; `dropDatabase(adminUrl, name)` removes it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix = "ayllu_test",
  template?: string,
): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
