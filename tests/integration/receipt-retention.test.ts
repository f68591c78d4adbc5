// Receipts are kept RECEIPT_RETENTION_DAYS after their event ends (issue 35, decision 048), then
// removed from the private store; the payment itself stays. The day is exact on the injectable
// clock, a file two payments share goes only when neither names it, and a file already gone is
// not an error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, payments, users, type User } from "~/db/schema.server";
import { loadConfig } from "~/kernel/config.server";
import { pruneReceipts } from "~/payments/payment.server";
import { privateFolderStorage } from "~/uploads/private-storage.server";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createTestEvent } from "../helpers/events";

const DAY = 86_400_000;
let database: TestDatabase;
let admin: User;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-privado-"));
  const [jefa] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `admin-${randomUUID()}`,
      email: "jefa@example.com",
      nombreCompleto: "Jefa",
      isAdmin: true,
    })
    .returning();
  admin = jefa!;
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A paid event that ended at `endsAt`, and a payment of it whose receipt is `name`. */
async function paidWithReceipt(endsAt: Date, name: string) {
  const event = await createTestEvent(database.db, admin, { fechaEvento: "2024-01-10" });
  await database.db
    .update(events)
    .set({ priceCents: 3000, startsAt: new Date(endsAt.getTime() - 2 * 3_600_000), endsAt })
    .where(eq(events.id, event.id));
  const [payment] = await database.db
    .insert(payments)
    .values({
      eventId: event.id,
      userId: admin.id,
      amountCents: 3000,
      status: "confirmed",
      receiptFile: name,
    })
    .returning();
  return payment!;
}

test("a receipt goes RECEIPT_RETENTION_DAYS after its event ends, to the day; the payment stays", async () => {
  const storage = privateFolderStorage(dir);
  const now = new Date("2026-11-27T12:00:00Z");
  const names = [0, 1, 2].map(() => `${randomBytes(16).toString("hex")}.jpg`);
  for (const name of names) await storage.write(name, randomBytes(100));
  const old = await paidWithReceipt(new Date(now.getTime() - 365 * DAY), names[0]!);
  const recent = await paidWithReceipt(new Date(now.getTime() - 365 * DAY + 60_000), names[1]!);
  // One file named by two payments (receipts are named by their content): kept while one needs it.
  const sharedOld = await paidWithReceipt(new Date(now.getTime() - 400 * DAY), names[2]!);
  const sharedRecent = await paidWithReceipt(new Date(now.getTime() - 10 * DAY), names[2]!);

  expect(await pruneReceipts(database.db, storage, 365, now)).toBe(2);
  const row = async (id: string) =>
    (await database.db.select().from(payments).where(eq(payments.id, id)))[0]!;
  expect((await row(old.id)).receiptFile).toBeNull();
  expect((await row(old.id)).status).toBe("confirmed");
  expect((await row(recent.id)).receiptFile).toBe(names[1]);
  expect((await row(sharedOld.id)).receiptFile).toBeNull();
  expect((await row(sharedRecent.id)).receiptFile).toBe(names[2]);
  expect(await storage.has(names[0]!)).toBe(false);
  expect(await storage.has(names[1]!)).toBe(true);
  expect(await storage.has(names[2]!)).toBe(true);

  // A minute later the second goes; running again finds nothing. A file already gone is fine.
  await fs.promises.rm(path.join(dir, names[1]!));
  expect(await pruneReceipts(database.db, storage, 365, new Date(now.getTime() + 60_000))).toBe(1);
  expect((await row(recent.id)).receiptFile).toBeNull();
  expect(await pruneReceipts(database.db, storage, 365, new Date(now.getTime() + 60_000))).toBe(0);
});

test("RECEIPT_RETENTION_DAYS is a whole number of days from 1 to 36500, a year by default", () => {
  const base = {
    NODE_ENV: "development",
    PUBLIC_URL: "http://localhost:3000",
    SESSION_SECRET: "x".repeat(40),
    DATA_DIR: dir,
  };
  expect(loadConfig(base).receiptRetentionDays).toBe(365);
  expect(loadConfig({ ...base, RECEIPT_RETENTION_DAYS: "30" }).receiptRetentionDays).toBe(30);
  for (const bad of ["0", "36501", "1.5", "un año", "-3"])
    expect(() => loadConfig({ ...base, RECEIPT_RETENTION_DAYS: bad }), bad).toThrow(
      /RECEIPT_RETENTION_DAYS/,
    );
});
