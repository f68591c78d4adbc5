// The embedded database's acknowledged writes are on disk: PGlite's own fsync does
// nothing, so every statement and transaction is followed by an fsync of what it wrote. Embedded
// database only: PostgreSQL does its own fsync.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, expect, test, vi } from "vitest";
import { openEmbedded, type Database } from "~/db/client.server";
import { copyEmbeddedTemplate } from "../helpers/database";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.restoreAllMocks();
});

async function openCopy(): Promise<{ database: Database; dir: string }> {
  const dir = copyEmbeddedTemplate(fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-fsync-")));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const database = await openEmbedded(dir);
  return { database, dir };
}

test("every acknowledged write on the embedded database is followed by fsync calls before it resolves", async () => {
  const { database } = await openCopy();
  cleanups.push(() => database.close());
  await database.db.execute(sql`create table escritura (n int)`);
  const fsync = vi.spyOn(fs, "fsyncSync");
  let writesWithoutFsync = 0;
  for (let i = 0; i < 200; i++) {
    const before = fsync.mock.calls.length;
    await database.db.execute(sql`insert into escritura values (${i})`);
    if (fsync.mock.calls.length === before) writesWithoutFsync++;
  }
  expect(writesWithoutFsync).toBe(0);
  expect(fsync.mock.calls.length).toBeGreaterThanOrEqual(200);
  expect(database.fsyncs!()).toBeGreaterThanOrEqual(200);

  // A transaction is synced once, when it commits.
  const before = fsync.mock.calls.length;
  await database.db.transaction(async (tx) => {
    for (let i = 0; i < 20; i++) await tx.execute(sql`insert into escritura values (${i})`);
  });
  const perTransaction = fsync.mock.calls.length - before;
  expect(perTransaction).toBeGreaterThanOrEqual(1);
  expect(perTransaction).toBeLessThan(20);
});

test("files the engine deletes while their writes wait to be synced are skipped, not an error", async () => {
  const { database } = await openCopy();
  cleanups.push(() => database.close());
  for (let i = 0; i < 10; i++) {
    await database.db.execute(sql`create table efimera (n int, t text)`);
    await database.db.execute(
      sql`insert into efimera select g, repeat('x', 200) from generate_series(1, 500) g`,
    );
    await database.db.execute(sql`drop table efimera`);
  }
  await database.db.execute(sql`vacuum full`);
  await database.db.execute(sql`checkpoint`);
});

test("a database opened, written and closed at once closes cleanly with everything synced", async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);
  try {
    const { database, dir } = await openCopy();
    await database.db.execute(sql`create table rapida (n int)`);
    // The write and the close are asked for together, as SIGTERM during a request does.
    const write = database.db.execute(sql`insert into rapida values (1)`).then(() => "escrito");
    const closed = database.close();
    expect(await write).toBe("escrito");
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
    // The folder is released and opens again with the write in it.
    const again = await openEmbedded(dir);
    try {
      const rows = await again.db.execute(sql`select count(*)::int as n from rapida`);
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
    } finally {
      await again.close();
    }
  } finally {
    process.off("unhandledRejection", onUnhandled);
    process.off("uncaughtException", onUnhandled);
  }
});
