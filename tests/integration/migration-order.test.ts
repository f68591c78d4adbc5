// A database migrated before migrations 0009–0012 existed gets them on its next start, though their
// journal times are earlier than 0008's (Drizzle alone would pass them over), on the embedded
// database and on PostgreSQL; and no migration after them may be written with an earlier time.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { openEmbedded, openPostgres, type Database } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import {
  createPostgresDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";

const DRIZZLE = path.join(PROJECT_ROOT, "drizzle");
const journal = JSON.parse(
  fs.readFileSync(path.join(DRIZZLE, "meta", "_journal.json"), "utf8"),
) as {
  entries: { idx: number; when: number; tag: string }[];
};
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A copy of the migrations folder as it was when 0008 was the newest. */
function migrationsThrough0008(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-migraciones-"));
  folders.push(folder);
  fs.mkdirSync(path.join(folder, "meta"));
  const entries = journal.entries.filter((e) => e.idx <= 8);
  fs.writeFileSync(
    path.join(folder, "meta", "_journal.json"),
    JSON.stringify({ ...journal, entries }, null, 2),
  );
  for (const e of entries)
    fs.copyFileSync(path.join(DRIZZLE, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
  return folder;
}

async function expectFullyMigrated(database: Database) {
  const result = await database.db
    .execute(sql`select to_regclass('public.sign_in_links')::text as links,
    to_regclass('public.upload_attempts')::text as uploads,
    (select count(*)::int from drizzle.__drizzle_migrations) as applied`);
  const row = rowsOf<{ links: string | null; uploads: string | null; applied: number }>(result)[0]!;
  expect(row.links).toBe("sign_in_links");
  expect(row.uploads).toBe("upload_attempts");
  expect(row.applied).toBe(journal.entries.length);
}

test("every migration after 0012 is written with a later time than all before it", () => {
  let latest = 0;
  for (const entry of journal.entries) {
    if (entry.idx > 12) expect(entry.when, entry.tag).toBeGreaterThan(latest);
    latest = Math.max(latest, entry.when);
  }
});

test("an embedded database migrated through 0008 gets 0009–0012 and the rest on its next start", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-datos-"));
  folders.push(dataDir);
  const old = await PGlite.create(path.join(dataDir, "pgdata"));
  await migratePglite(drizzlePglite({ client: old }), {
    migrationsFolder: migrationsThrough0008(),
  });
  await old.close();

  const database = await openEmbedded(dataDir);
  try {
    await expectFullyMigrated(database);
  } finally {
    await database.close();
  }
  // And the next start changes nothing.
  const again = await openEmbedded(dataDir);
  try {
    await expectFullyMigrated(again);
  } finally {
    await again.close();
  }
}, 120_000);

testOnlyOn("postgres", "the embedded database's upgrade is the test above")(
  "a PostgreSQL database migrated through 0008 gets 0009–0012 and the rest on its next start",
  async () => {
    const adminUrl = postgresAdminUrl!;
    const { name, url } = await createPostgresDatabase(adminUrl);
    try {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await migrateNodePg(drizzleNodePg({ client }), {
          migrationsFolder: migrationsThrough0008(),
        });
      } finally {
        await client.end();
      }
      const database = await openPostgres(url);
      try {
        await expectFullyMigrated(database);
      } finally {
        await database.close();
      }
    } finally {
      await dropDatabase(adminUrl, name);
    }
  },
  120_000,
);
