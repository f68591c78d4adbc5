// Issue 35, part C (decision 048), through the real server: the treasurer's queue — 'Confirmar',
// 'Rechazar' with a reason the member reads, 'Beca', refunds of paid places left before the start,
// the CSV — each in the audit log, refused to everyone else, with bad input; and a confirmation
// racing the expiry of the same hold ends in one state.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditLog, events, participations, payments } from "~/db/schema.server";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { grantRole } from "~/members/roles.server";
import { isUuid } from "~/kernel/checks";
import { MESSAGES } from "~/messages";
import { expireHolds } from "~/hold-expiry.server";
import { decidePayment, PaymentStateError } from "~/payments/review.server";
import { BrowserClient } from "../helpers/browser-client";
import { databaseName } from "../helpers/database";
import { alertsIn, createAdmin, createMember, createTestEvent, landOn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const HOUR = 3_600_000;
const BANK_PDF = path.join(import.meta.dirname, "../fixtures/receipts/benign-pdfkit.pdf");
let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let treasurer: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  treasurer = await createMember(server, `tesorera-${randomUUID()}@example.com`, "Tesorera Tica");
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
});
afterAll(() => server?.close());

async function paidEvent(capacity = 20) {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-08-08",
    capacity: String(capacity),
  });
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
  return event;
}

/** A member whose place is held and who sent the transaction number. */
async function submitted(eventId: string) {
  const member = await createMember(server);
  await joinEvent(server.db, member.user, eventId);
  const reply = await member.client.post(`/detalles/${eventId}/pago`, {
    intent: "transaction",
    transactionNumber: "TRX-0001",
  });
  expect(reply.status).toBe(302);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.eventId, eventId), eq(payments.userId, member.user.id)));
  return { ...member, payment: payment! };
}

/** The treasurer as the model sees a request's member: with their grant. */
const asTreasurer = () => ({
  ...treasurer.user,
  grants: [{ kind: "treasurer" as const, eventId: null }],
});

const paymentRow = async (id: string) =>
  (await server.db.select().from(payments).where(eq(payments.id, id)))[0]!;

/**
 * A decision as the queue's forms send it: with the state the page showed (`visto`), read here
 * as the page would have read it, unless the test names one.
 */
async function decide(client: BrowserClient, form: Record<string, string>, view = "revisar") {
  const shown = isUuid(form.paymentId)
    ? (await server.db.select().from(payments).where(eq(payments.id, form.paymentId)))[0]?.status
    : undefined;
  return client.post(`/tesoreria/pagos?ver=${view}`, { visto: shown ?? "submitted", ...form });
}

test("the queue lists what came with its receipt beside it; 'Confirmar' confirms, is logged, and the member reads it", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  const queue = await treasurer.client.get("/tesoreria/pagos");
  expect(queue.status).toBe(200);
  expect(queue.text).toContain(member.payment.reference);
  expect(queue.text).toContain("N.º TRX-0001");

  const reply = await decide(treasurer.client, { intent: "confirm", paymentId: member.payment.id });
  expect(reply.status).toBe(302);
  expect(alertsIn((await landOn(treasurer.client, reply)).text)).toEqual([
    MESSAGES.paymentConfirmed,
  ]);
  expect(await paymentRow(member.payment.id)).toMatchObject({
    status: "confirmed",
    decidedBy: treasurer.user.id,
    decidedByName: "Tesorera Tica",
    heldUntil: null,
  });
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "payments.confirm"), eq(auditLog.itemId, member.payment.id)));
  expect(entry).toMatchObject({ actorId: treasurer.user.id, role: "treasurer" });
  expect(entry!.summary).toContain(member.payment.reference);
  expect((await member.client.get(`/detalles/${event.id}/pago`)).text).toContain(
    "Pago confirmado.",
  );
  // Twice: the second is told why, nothing changes.
  const again = await decide(treasurer.client, { intent: "confirm", paymentId: member.payment.id });
  expect(again.status).toBe(409);
  expect(again.text).toContain("Este pago ya está confirmado");
});

test("'Rechazar' needs a reason, which the member reads; the place is held again for the event's hold hours", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  const none = await decide(treasurer.client, {
    intent: "refuse",
    paymentId: member.payment.id,
    motivo: "  ",
  });
  expect(none.status).toBe(409);
  expect(none.text).toContain("Escribe el motivo del rechazo");
  const long = await decide(treasurer.client, {
    intent: "refuse",
    paymentId: member.payment.id,
    motivo: "x".repeat(501),
  });
  expect(long.status).toBe(400);
  expect((await paymentRow(member.payment.id)).status).toBe("submitted");

  const before = Date.now();
  const reply = await decide(treasurer.client, {
    intent: "refuse",
    paymentId: member.payment.id,
    motivo: "El monto del comprobante es Bs 20, faltan Bs 10.",
  });
  expect(reply.status).toBe(302);
  const row = await paymentRow(member.payment.id);
  expect(row.status).toBe("refused");
  expect(row.heldUntil!.getTime()).toBeGreaterThanOrEqual(before + 48 * HOUR - 1000);
  const page = (await member.client.get(`/detalles/${event.id}/pago`)).text;
  expect(page).toContain("El monto del comprobante es Bs 20, faltan Bs 10.");
  expect(page).toContain("Enviar comprobante");
  // Sending again puts it back in the queue.
  await member.client.post(`/detalles/${event.id}/pago`, {
    intent: "transaction",
    transactionNumber: "TRX-0002",
  });
  expect((await paymentRow(member.payment.id)).status).toBe("submitted");
  // A refusal answers something sent: a place only held cannot be refused.
  const held = await createMember(server);
  await joinEvent(server.db, held.user, event.id);
  const [pending] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.eventId, event.id), eq(payments.userId, held.user.id)));
  expect(
    (
      await decide(treasurer.client, {
        intent: "refuse",
        paymentId: pending!.id,
        motivo: "No llegó",
      })
    ).status,
  ).toBe(409);
});

test("'Beca' waives the price for a person, logged", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  const reply = await decide(treasurer.client, { intent: "waive", paymentId: member.payment.id });
  expect(reply.status).toBe(302);
  expect((await paymentRow(member.payment.id)).status).toBe("waived");
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "payments.waive"), eq(auditLog.itemId, member.payment.id)));
  expect(entry!.summary).toContain("Dio una beca");
  expect((await member.client.get(`/detalles/${event.id}/pago`)).text).toContain("Tienes una beca");
});

test("a member who leaves a paid place before the start is due a refund; recording it is logged; nothing else can be refunded", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  await decidePayment(server.db, asTreasurer(), member.payment.id, "confirm");
  const notLeft = await decide(
    treasurer.client,
    { intent: "refund", paymentId: member.payment.id, nota: "" },
    "reembolsos",
  );
  expect(notLeft.status).toBe(409);
  await leaveEvent(server.db, member.user, event.id);
  const row = await paymentRow(member.payment.id);
  expect(row.status).toBe("confirmed");
  expect(row.leftAt).not.toBeNull();
  const view = await treasurer.client.get("/tesoreria/pagos?ver=reembolsos");
  expect(view.text).toContain(member.payment.reference);
  expect(view.text).toContain("le corresponde un reembolso");
  const long = await decide(
    treasurer.client,
    { intent: "refund", paymentId: member.payment.id, nota: "n".repeat(301) },
    "reembolsos",
  );
  expect(long.status).toBe(400);
  const reply = await decide(
    treasurer.client,
    { intent: "refund", paymentId: member.payment.id, nota: "Transferencia 998877" },
    "reembolsos",
  );
  expect(reply.status).toBe(302);
  expect(await paymentRow(member.payment.id)).toMatchObject({
    status: "refunded",
    refundedBy: treasurer.user.id,
    refundNote: "Transferencia 998877",
  });
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, "payments.refund"), eq(auditLog.itemId, member.payment.id)));
  expect(entry).toMatchObject({ role: "treasurer" });
});

test("the CSV has each payment's name, reference, amount, state, who confirmed and when, and the receipt as a link that needs a treasurer's session", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  const form = new FormData();
  form.append(
    "comprobante",
    new Blob([new Uint8Array(fs.readFileSync(BANK_PDF))], { type: "application/pdf" }),
    "c.pdf",
  );
  const sent = await member.client.request("POST", `/detalles/${event.id}/pago`, { body: form });
  expect(sent.status).toBe(302);
  await decidePayment(server.db, asTreasurer(), member.payment.id, "confirm");
  const csv = await treasurer.client.get("/tesoreria/pagos.csv");
  expect(csv.status).toBe(200);
  expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(csv.headers.get("content-disposition")).toBe('attachment; filename="pagos.csv"');
  const lines = csv.text.replace(/^\uFEFF/, "").split("\r\n");
  expect(lines[0]).toBe(
    '"Nombre","Correo","Evento","Referencia","Monto (Bs)","Estado","Decidido por","Decidido el","Número de transacción","Comprobante"',
  );
  const line = lines.find((l) => l.includes(member.payment.reference))!;
  const receiptUrl = `${server.url.origin}/pagos/${member.payment.id}/comprobante`;
  expect(line).toContain(`"${member.user.nombreCompleto}"`);
  expect(line).toContain('"30,00","Confirmado","Tesorera Tica"');
  expect(line).toContain(`"${receiptUrl}"`);
  // The link needs a session of someone who may read it.
  expect((await fetch(receiptUrl)).status).toBe(403);
  expect((await treasurer.client.request("GET", receiptUrl)).status).toBe(200);
});

test("members, editors, organisers and visitors may not see the queue, decide, refund or download the CSV; nothing changes", async () => {
  const event = await paidEvent();
  const member = await submitted(event.id);
  const editor = await createMember(server);
  await grantRole(server.db, admin.user, { userId: editor.user.id, kind: "editor" });
  const organiser = await createMember(server);
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  const before = await paymentRow(member.payment.id);
  for (const client of [
    member.client,
    editor.client,
    organiser.client,
    new BrowserClient(server.url),
  ]) {
    expect((await client.get("/tesoreria/pagos")).status).toBe(302);
    expect((await client.get("/tesoreria/pagos.csv")).status).toBe(302);
    for (const intent of ["confirm", "waive", "refuse", "refund"]) {
      const reply = await decide(client, {
        intent,
        paymentId: member.payment.id,
        motivo: "x",
        nota: "",
      });
      expect([302, 403], intent).toContain(reply.status);
    }
  }
  expect(await paymentRow(member.payment.id)).toEqual(before);
});

test("bad input to the queue: an unknown or malformed payment, an unknown decision or view, a malformed body — a 4xx in Spanish", async () => {
  const unknown = await decide(treasurer.client, { intent: "confirm", paymentId: randomUUID() });
  expect(unknown.status).toBe(404);
  expect(unknown.text).toContain("No tienes una inscripción con pago");
  expect(
    (await decide(treasurer.client, { intent: "confirm", paymentId: "1; drop table payments" }))
      .status,
  ).toBe(404);
  expect((await decide(treasurer.client, { intent: "confirm" })).status).toBe(404);
  const intent = await decide(treasurer.client, { intent: "borrar", paymentId: randomUUID() });
  expect(intent.status).toBe(400);
  expect(alertsIn(intent.text)).toEqual([MESSAGES.unknownAction]);
  expect((await treasurer.client.get("/tesoreria/pagos?ver=secretos")).status).toBe(400);
  const json = await treasurer.client.request("POST", "/tesoreria/pagos", {
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
});

test(`a confirmation racing the expiry of the same hold ends in one state: confirmed and seated, or expired and the place passed on (${databaseName})`, async () => {
  const event = await paidEvent(40);
  const members = await Promise.all(Array.from({ length: 12 }, () => createMember(server)));
  const start = new Date();
  for (const m of members) await joinEvent(server.db, m.user, event.id, start);
  const rows = await server.db.select().from(payments).where(eq(payments.eventId, event.id));
  const later = new Date(start.getTime() + 49 * HOUR);
  const outcomes = await Promise.all([
    expireHolds(server.db, later),
    ...rows.map((p) =>
      decidePayment(server.db, asTreasurer(), p.id, "confirm", null, later).then(
        () => "confirmed",
        (error: unknown) => {
          expect(error).toBeInstanceOf(PaymentStateError);
          return "refused";
        },
      ),
    ),
  ]);
  const decisions = outcomes.slice(1);
  for (const [i, p] of rows.entries()) {
    const row = await paymentRow(p.id);
    const [seat] = await server.db
      .select()
      .from(participations)
      .where(and(eq(participations.eventId, event.id), eq(participations.userId, p.userId!)));
    if (decisions[i] === "confirmed") {
      expect(row.status).toBe("confirmed");
      expect(seat).toBeDefined();
    } else {
      expect(row.status).toBe("expired");
      expect(seat).toBeUndefined();
    }
  }
  // Every refused confirmation lost to the expiry (which may also have expired other tests' holds).
  expect(outcomes[0]).toBeGreaterThanOrEqual(decisions.filter((d) => d === "refused").length);
});
