// Issue 35, part D (decision 048): a mail for each step of a payment, through a real SMTP server
// on loopback — the place held with how to pay and the reference, the receipt received, confirmed
// (or a grant), refused with the reason, the hold about to run out (HOLD_REMINDER_HOURS before,
// once), the hold run out — transactional, so sent even to someone who turned every topic off,
// and with no unsubscribe link.
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { events, mailOutbox, paymentMethod, payments, users, type User } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import type { MailSite } from "~/mail/compose.server";
import { MAIL_TOPICS } from "~/mail/topics";
import { createMailWorker, smtpTransport } from "~/mail/worker.server";
import { expireHolds } from "~/hold-expiry.server";
import { queueDueHoldReminders } from "~/payments/mails.server";
import { submitPayment } from "~/payments/payment.server";
import { privateFolderStorage } from "~/uploads/private-storage.server";
import { decidePayment } from "~/payments/review.server";
import { failOnConsoleError } from "../helpers/console";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { createTestEvent } from "../helpers/events";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";
import { MAIL_DRAFTS } from "~/mail-drafts.server";

let database: TestDatabase;
let smtp: TestSmtp;
let admin: User;
const HOUR = 3_600_000;
const SITE: MailSite = {
  origin: "https://ayllu.example",
  hostname: "ayllu.example",
  from: "Ayllu <eventos@ayllu.example>",
  timeZone: "America/La_Paz",
};

beforeAll(async () => {
  [database, smtp] = await Promise.all([createTestDatabase(), startTestSmtp()]);
  const [jefa] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `admin-${randomUUID()}`,
      email: "jefa@example.com",
      nombreCompleto: "Jefa Admin",
      isAdmin: true,
    })
    .returning();
  admin = jefa!;
  await database.db.insert(paymentMethod).values({
    accountHolder: "Asociación Ayllu",
    bank: "Banco Unión",
    instructions: "Desde cualquier banco, con QR Simple.",
  });
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});
beforeEach(async () => {
  await database.db.delete(mailOutbox);
  smtp.received.length = 0;
  smtp.mode = "accept";
});
failOnConsoleError();

/** A member who turned every topic off: payment mails come all the same. */
async function member(): Promise<User> {
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `m-${randomUUID()}`,
      email: `m-${randomUUID()}@example.com`,
      nombreCompleto: "Rosa Mamani",
      mailOff: [...MAIL_TOPICS],
    })
    .returning();
  return user!;
}

async function paidEvent(capacity = 10) {
  const event = await createTestEvent(database.db, admin, {
    nombreEvento: "Curso de Robótica",
    fechaEvento: "2031-09-09",
    capacity: String(capacity),
  });
  await database.db
    .update(events)
    .set({ priceCents: 3050, holdHours: 48 })
    .where(eq(events.id, event.id));
  return event;
}

function worker(now?: () => Date) {
  return createMailWorker({
    drafts: MAIL_DRAFTS,
    db: database.db,
    site: SITE,
    transport: smtpTransport(smtp.url),
    reminderHours: 24,
    holdReminderHours: 6,
    now,
  });
}

async function sendAll(count: number, now?: () => Date): Promise<ParsedMail[]> {
  await worker(now).runOnce();
  return smtp.waitFor(count);
}

/** An admin decides as a treasurer would. */
const treasurer = () => ({ ...admin, isAdmin: true });

test("a place held: the mail says how to pay — amount, reference, until when, the account — with no unsubscribe link; no 'inscripción confirmada'", async () => {
  const event = await paidEvent();
  const rosa = await member();
  const start = new Date();
  await joinEvent(database.db, rosa, event.id, start);
  const [payment] = await database.db.select().from(payments).where(eq(payments.userId, rosa.id));
  const kinds = (await database.db.select().from(mailOutbox)).map((m) => m.kind);
  expect(kinds).toEqual(["paymentPending"]);
  const [mail] = await sendAll(1);
  expect(mail!.subject).toBe("Reserva tu plaza: Curso de Robótica");
  expect(mail!.text).toContain("Pendiente de pago");
  expect(mail!.text).toContain("Monto: Bs 30,50");
  expect(mail!.text).toContain(`Código para la glosa: ${payment!.reference}`);
  expect(mail!.text).toContain("Cuenta: Asociación Ayllu · Banco Unión");
  expect(mail!.text).toContain("Desde cualquier banco, con QR Simple.");
  expect(mail!.text).toContain(`${SITE.origin}/detalles/${event.id}/pago`);
  expect(mail!.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(false);
  expect(mail!.text).not.toContain("darte de baja");
});

test("receipt received, confirmed, refused with the reason, a grant: each step its mail", async () => {
  const event = await paidEvent();
  const [a, b, c] = [await member(), await member(), await member()];
  for (const m of [a!, b!, c!]) await joinEvent(database.db, m, event.id);
  await database.db.delete(mailOutbox);
  const paymentOf = async (u: User) =>
    (
      await database.db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, u.id), eq(payments.eventId, event.id)))
    )[0]!;
  // The number alone: no receipt is read, so the store is never touched.
  const storage = privateFolderStorage(path.join(os.tmpdir(), `recibos-${randomUUID()}`));
  for (const m of [a!, b!])
    await submitPayment(
      database.db,
      storage,
      m,
      event.id,
      { receipt: null, transactionNumber: "TRX-1234" },
      { maxBytes: 1024, maxPixels: 1024 },
    );
  await decidePayment(database.db, treasurer(), (await paymentOf(a!)).id, "confirm");
  await decidePayment(
    database.db,
    treasurer(),
    (await paymentOf(b!)).id,
    "refuse",
    "El comprobante es de otro monto.",
  );
  await decidePayment(database.db, treasurer(), (await paymentOf(c!)).id, "waive");
  const rows = await database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.createdAt));
  expect(rows.map((r) => [r.kind, r.userId])).toEqual([
    ["receiptReceived", a!.id],
    ["receiptReceived", b!.id],
    ["paymentConfirmed", a!.id],
    ["paymentRefused", b!.id],
    ["paymentConfirmed", c!.id],
  ]);
  const mails = await sendAll(5);
  const subject = (s: string) => mails.filter((m) => m.subject === s);
  expect(subject("Recibimos tu pago: Curso de Robótica")).toHaveLength(2);
  const confirmed = subject("Pago confirmado: Curso de Robótica")[0]!;
  expect(confirmed.text).toContain("Tesorería confirmó tu pago de Bs 30,50");
  const refused = subject("Revisa tu pago: Curso de Robótica")[0]!;
  expect(refused.text).toContain("Motivo: El comprobante es de otro monto.");
  expect(refused.text).toContain("Tu plaza sigue reservada hasta el");
  expect(subject("Tienes una beca: Curso de Robótica")[0]!.text).toContain("no necesitas pagar");
});

test(`the hold about to run out is warned of once, 6 hours before; the hold run out is told, and the next waiting gets the payment mail`, async () => {
  const event = await paidEvent(1);
  const [first, second] = [await member(), await member()];
  const start = new Date();
  await joinEvent(database.db, first!, event.id, start);
  await joinEvent(database.db, second!, event.id, start);
  await database.db.delete(mailOutbox);

  // Seven hours before the end of the hold: nothing yet.
  expect(await queueDueHoldReminders(database.db, new Date(start.getTime() + 41 * HOUR), 6)).toBe(
    0,
  );
  const sixBefore = new Date(start.getTime() + 42 * HOUR);
  await queueDueHoldReminders(database.db, sixBefore, 6);
  await queueDueHoldReminders(database.db, new Date(sixBefore.getTime() + HOUR), 6);
  // (Other tests' holds may be warned of too: only this event's are looked at.)
  const reminders = await database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.eventId, event.id));
  expect(reminders.map((r) => [r.kind, r.userId])).toEqual([["holdExpiring", first!.id]]);
  await worker().runOnce();
  const warnings = (await smtp.waitFor(1)).filter(
    (m) => m.subject === "Tu reserva vence pronto: Curso de Robótica",
  );
  expect(warnings.length).toBeGreaterThanOrEqual(1);

  await database.db.delete(mailOutbox);
  smtp.received.length = 0;
  await expireHolds(database.db, new Date(start.getTime() + 48 * HOUR));
  const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.eventId, event.id));
  expect(rows.map((r) => [r.kind, r.userId]).sort()).toEqual(
    [
      ["holdExpired", first!.id],
      ["paymentPending", second!.id],
    ].sort(),
  );
  await worker().runOnce();
  const mails = await smtp.waitFor(2);
  const expired = mails.find((m) => m.subject === "Tu reserva venció: Curso de Robótica")!;
  expect(expired.text).toContain("pasó a la siguiente persona en espera");
  const seat = mails.find((m) => m.subject === "¡Tienes una plaza! Curso de Robótica")!;
  expect(seat.text).toContain("la reservamos para ti hasta el");
});
