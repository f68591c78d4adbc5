// Issue 35, part B (decision 048): a place at a paid event is held as 'Pendiente de pago' and
// counts against the seats; 100 joins at once for 10 places hold exactly 10; holds that run out,
// by the server's clock, free their places and the waiting list advances exactly, each member
// seated from it with a new hold; a member who leaves before paying frees the place.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, eventWaitlist, participations, payments, users } from "~/db/schema.server";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { expireHolds } from "~/hold-expiry.server";
import { grantRole } from "~/members/roles.server";
import { BrowserClient } from "../helpers/browser-client";
import { databaseName, testOnlyOn } from "../helpers/database";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const HOUR = 3_600_000;
let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

async function newMembers(count: number, label = "pago") {
  return server.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        issuer: "https://test.invalid",
        subject: `${label}-${randomUUID()}-${i}`,
        email: `${label}-${i}-${randomUUID()}@example.com`,
        nombreCompleto: `${label} ${i}`,
      })),
    )
    .returning();
}

/** A paid event (Bs 30) of `capacity` places, a year ahead, holding places `holdHours`. */
async function paidEvent(capacity: number, holdHours = 48) {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-05-05",
    capacity: String(capacity),
  });
  await server.db
    .update(events)
    .set({ priceCents: 3000, holdHours })
    .where(eq(events.id, event.id));
  return event;
}

const seatedIds = async (eventId: string) =>
  (
    await server.db
      .select({ userId: participations.userId })
      .from(participations)
      .where(eq(participations.eventId, eventId))
  ).map((r) => r.userId);

const waitingIds = async (eventId: string) =>
  (
    await server.db
      .select({ userId: eventWaitlist.userId })
      .from(eventWaitlist)
      .where(eq(eventWaitlist.eventId, eventId))
      .orderBy(asc(eventWaitlist.createdAt), asc(eventWaitlist.userId))
  ).map((r) => r.userId);

const paymentsOf = (eventId: string) =>
  server.db.select().from(payments).where(eq(payments.eventId, eventId));

/** 100 members join a paid event of 10 places at once. */
async function hundredJoinAtOnce(label: string) {
  const event = await paidEvent(10);
  const members = await newMembers(100, label);
  const now = new Date();
  const outcomes = await Promise.all(members.map((m) => joinEvent(server.db, m, event.id, now)));
  return {
    event,
    members,
    now,
    outcomes,
    seated: await seatedIds(event.id),
    waiting: await waitingIds(event.id),
  };
}

test(`100 members joining a paid event of 10 places at once: exactly 10 held 'Pendiente de pago', 90 waiting (${databaseName})`, async () => {
  const { event, members, now, outcomes, seated, waiting } = await hundredJoinAtOnce("a-la-vez");
  expect(outcomes.filter((o) => o === "joined")).toHaveLength(10);
  expect(seated).toHaveLength(10);
  expect(waiting).toHaveLength(90);
  const held = await paymentsOf(event.id);
  expect(held).toHaveLength(10);
  expect(new Set(held.map((p) => p.userId))).toEqual(new Set(seated));
  for (const p of held) {
    expect(p).toMatchObject({ status: "pending", amountCents: 3000, subjectKind: "registration" });
    expect(p.heldUntil!.getTime()).toBe(now.getTime() + 48 * HOUR);
    // A short reference without ambiguous characters (no I, L, O, U).
    expect(p.reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  }
  expect(new Set(held.map((p) => p.reference)).size).toBe(10);
  // Joining again changes nothing: one live payment per registration.
  await joinEvent(
    server.db,
    members.find((m) => m.id === seated[0])!,
    event.id,
    now,
  );
  expect(await paymentsOf(event.id)).toHaveLength(10);
});

testOnlyOn(
  "embedded",
  "it runs one transaction at a time, in the order they were asked for; PostgreSQL runs them side by side",
)(
  "100 members joining a paid event of 10 places at once: the first 10 to ask hold the places and the other 90 wait in the order they asked",
  async () => {
    const { members, seated, waiting } = await hundredJoinAtOnce("en-orden");
    expect([...seated].sort()).toEqual(
      members
        .slice(0, 10)
        .map((m) => m.id)
        .sort(),
    );
    expect(waiting).toEqual(members.slice(10).map((m) => m.id));
  },
);

test("holds that run out by the server's clock free their places: the first 10 waiting get them, each with a new hold, and the rest keep their order", async () => {
  const event = await paidEvent(10, 24);
  const members = await newMembers(30, "vence");
  const start = new Date();
  for (const m of members) await joinEvent(server.db, m, event.id, start);
  const firstTen = members.slice(0, 10).map((m) => m.id);
  expect((await seatedIds(event.id)).sort()).toEqual([...firstTen].sort());
  // One of them sent a receipt: their place stays held until a treasurer decides.
  await server.db
    .update(payments)
    .set({ status: "submitted", transactionNumber: "123456789", submittedAt: start })
    .where(and(eq(payments.eventId, event.id), eq(payments.userId, firstTen[0]!)));

  // Not yet: an hour before the end of the hold nothing moves.
  expect(await expireHolds(server.db, new Date(start.getTime() + 23 * HOUR))).toBe(0);
  expect((await seatedIds(event.id)).sort()).toEqual([...firstTen].sort());

  const later = new Date(start.getTime() + 24 * HOUR);
  expect(await expireHolds(server.db, later)).toBe(9);
  const next = members.slice(10, 19).map((m) => m.id);
  expect((await seatedIds(event.id)).sort()).toEqual([firstTen[0]!, ...next].sort());
  expect(await waitingIds(event.id)).toEqual(members.slice(19).map((m) => m.id));
  const rows = await paymentsOf(event.id);
  const byUser = (id: string) => rows.filter((p) => p.userId === id);
  for (const id of firstTen.slice(1)) expect(byUser(id).map((p) => p.status)).toEqual(["expired"]);
  expect(byUser(firstTen[0]!).map((p) => p.status)).toEqual(["submitted"]);
  for (const id of next) {
    const [hold] = byUser(id);
    expect(hold).toMatchObject({ status: "pending" });
    expect(hold!.heldUntil!.getTime()).toBe(later.getTime() + 24 * HOUR);
  }
  // Run again at the same moment: nothing more to do.
  expect(await expireHolds(server.db, later)).toBe(0);

  // Someone whose hold expired may join again: a new hold (the expired one stays as history).
  const again = members[1]!;
  expect(await joinEvent(server.db, again, event.id, later)).toBe("waiting");
});

test("a member who leaves before paying frees the place: the payment is cancelled and the first waiting gets a hold", async () => {
  const event = await paidEvent(1);
  const [first, second] = await newMembers(2, "sale");
  const now = new Date();
  await joinEvent(server.db, first!, event.id, now);
  await joinEvent(server.db, second!, event.id, now);
  await leaveEvent(server.db, first!, event.id, now);
  expect(await seatedIds(event.id)).toEqual([second!.id]);
  const rows = await paymentsOf(event.id);
  expect(rows.find((p) => p.userId === first!.id)!.status).toBe("cancelled");
  expect(rows.find((p) => p.userId === second!.id)!.status).toBe("pending");
});

test("a free event holds nothing: no payment is opened", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-06-06" });
  const [one] = await newMembers(1, "gratis");
  await joinEvent(server.db, one!, event.id);
  expect(await paymentsOf(event.id)).toEqual([]);
  expect(
    await server.db
      .select()
      .from(payments)
      .where(inArray(payments.userId, [one!.id])),
  ).toEqual([]);
});

// ——— The member's payment page (through the real server) ———

/** A JPEG photo of a receipt, with GPS coordinates in its EXIF. */
async function receiptPhoto(seed = 1): Promise<Buffer> {
  const pixels = Buffer.alloc(300 * 200 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 13 + seed * 7) % 251;
  return sharp(pixels, { raw: { width: 300, height: 200, channels: 3 } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: "Telefono" },
      IFD3: { GPSLatitudeRef: "S", GPSLatitude: "16/1 30/1 0/1" },
    })
    .toBuffer();
}

const BANK_PDF = fs.readFileSync(
  path.join(import.meta.dirname, "../fixtures/receipts/benign-pdfkit.pdf"),
);

function postReceipt(
  client: BrowserClient,
  eventId: string,
  file: { name: string; data: Buffer; type?: string },
) {
  const form = new FormData();
  form.append(
    "comprobante",
    new Blob([new Uint8Array(file.data)], { type: file.type ?? "image/jpeg" }),
    file.name,
  );
  return client.request("POST", `/detalles/${eventId}/pago`, { body: form });
}

const fieldErrorOf = (html: string, field: string) =>
  new RegExp(`<p class="field-error" id="pago-${field}-error">([^<]*)</p>`).exec(html)?.[1] ?? null;

async function heldMember(eventId: string) {
  const member = await createMember(server);
  await joinEvent(server.db, member.user, eventId);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.eventId, eventId), eq(payments.userId, member.user.id)));
  return { ...member, payment: payment! };
}

test("the payment page shows the amount, the reference and the QR to the member whose place is held; the QR to nobody else", async () => {
  const event = await paidEvent(5);
  const treasurer = await createMember(server);
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
  const qr = await sharp({
    create: { width: 100, height: 100, channels: 3, background: { r: 0, g: 0, b: 0 } },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("imagen", new Blob([new Uint8Array(qr)], { type: "image/png" }), "qr.png");
  expect((await treasurer.client.request("POST", "/tesoreria", { body: form })).status).toBe(302);

  const member = await heldMember(event.id);
  const page = await member.client.get(`/detalles/${event.id}/pago`);
  expect(page.status).toBe(200);
  const text = page.text.replaceAll("<!-- -->", "");
  expect(text).toContain("Pendiente de pago: tu plaza está reservada hasta el");
  expect(text).toContain("Bs 30");
  const ref = member.payment.reference;
  expect(text).toContain(`${ref.slice(0, 4)} ${ref.slice(4)}`);
  expect(text).toMatch(/<img class="payment-qr" src="\/pago\/qr\.png\?v=[0-9a-f]{8}"/);
  expect((await member.client.request("GET", "/pago/qr.png")).status).toBe(200);
  // The event page leads there.
  expect((await member.client.get(`/detalles/${event.id}`)).text).toContain(
    `href="/detalles/${event.id}/pago"`,
  );

  const stranger = await createMember(server);
  expect((await stranger.client.request("GET", "/pago/qr.png")).status).toBe(403);
  expect((await stranger.client.get(`/detalles/${event.id}/pago`)).status).toBe(404);
  expect((await member.client.get(`/detalles/${randomUUID()}/pago`)).status).toBe(404);
  expect((await member.client.get("/detalles/no-es-un-id/pago")).status).toBe(404);
  const visitor = await new BrowserClient(server.url).get(`/detalles/${event.id}/pago`);
  expect(visitor.location).toContain("/login");
});

test("a receipt photo is stored without its metadata, private, and shown by itself under a sandbox policy to its member, treasurers and admins only", async () => {
  const event = await paidEvent(5);
  const member = await heldMember(event.id);
  const reply = await postReceipt(member.client, event.id, {
    name: "comprobante.jpg",
    data: await receiptPhoto(),
  });
  expect(reply.status).toBe(302);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.id, member.payment.id));
  expect(payment).toMatchObject({ status: "submitted", heldUntil: null });
  expect(payment!.receiptFile).toMatch(/^[0-9a-f]{32}\.jpg$/);
  const stored = fs.readFileSync(path.join(server.config.privateDir, payment!.receiptFile!));
  expect((await sharp(stored).metadata()).exif).toBeUndefined();
  expect(fs.readdirSync(server.config.uploadsDir).filter((n) => !n.startsWith("."))).toEqual([]);

  const treasurer = await createMember(server);
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
  for (const who of [member, treasurer, admin]) {
    const download = await who.client.request("GET", `/pagos/${payment!.id}/comprobante`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    expect(download.headers.get("content-disposition")).toBe(
      `inline; filename="comprobante-${payment!.reference}.jpg"`,
    );
    expect(download.headers.get("content-security-policy")).toBe(
      "default-src 'none'; sandbox; frame-ancestors 'none'",
    );
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("cache-control")).toBe("private, no-store");
  }
  const other = await createMember(server);
  const refused = await other.client.request("GET", `/pagos/${payment!.id}/comprobante`);
  expect(refused.status).toBe(403);
  expect(refused.headers.get("content-type")).toContain("text/plain");
  expect(
    (await new BrowserClient(server.url).request("GET", `/pagos/${payment!.id}/comprobante`))
      .status,
  ).toBe(403);
  expect((await admin.client.request("GET", `/pagos/${randomUUID()}/comprobante`)).status).toBe(
    404,
  );
  expect((await admin.client.request("GET", "/pagos/123/comprobante")).status).toBe(404);
  // Someone else's registration: a member with no place there cannot send one for it.
  expect(
    (await postReceipt(other.client, event.id, { name: "a.jpg", data: await receiptPhoto(2) }))
      .status,
  ).toBe(404);

  // A PDF from the bank is kept as a picture of its page, never as the PDF (decision 061).
  const pdf = await postReceipt(member.client, event.id, {
    name: "banco.pdf",
    data: BANK_PDF,
    type: "application/pdf",
  });
  expect(pdf.status).toBe(302);
  const [again] = await server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  expect(again!.receiptFile).toMatch(/^[0-9a-f]{32}\.jpg$/);
  // The photo it replaced is gone from the private store.
  expect(fs.existsSync(path.join(server.config.privateDir, payment!.receiptFile!))).toBe(false);
  const download = await member.client.request("GET", `/pagos/${payment!.id}/comprobante`);
  expect(download.headers.get("content-type")).toBe("image/jpeg");
  const kept = fs.readFileSync(path.join(server.config.privateDir, again!.receiptFile!));
  expect((await sharp(kept).metadata()).format).toBe("jpeg");
  expect(kept.includes("%PDF")).toBe(false);
});

test("bad receipts are refused with a Spanish message and change nothing: text named .jpg, PDFs with no page to draw (a bare script, a lone object stream), too large, no file, two files", async () => {
  const event = await paidEvent(5);
  const member = await heldMember(event.id);
  const before = () => server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  const was = await before();
  const files = () => fs.readdirSync(server.config.privateDir).sort();
  const had = files();

  const text = await postReceipt(member.client, event.id, {
    name: "comprobante.jpg",
    data: Buffer.from("esto no es una imagen\n".repeat(30)),
  });
  expect(text.status).toBe(415);
  expect(fieldErrorOf(text.text, "comprobante")).toBe(
    "«comprobante.jpg» no es una foto (JPEG, PNG o WebP) ni un PDF.",
  );

  const scripted = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    "latin1",
  );
  const hidden = Buffer.concat([
    Buffer.from("%PDF-1.5\n1 0 obj << /Type /ObjStm /Filter /FlateDecode >>\nstream\n", "latin1"),
    deflateSync(Buffer.from("<< /S /JavaScript /JS (app.launchURL('x')) >>", "latin1")),
    Buffer.from("\nendstream\nendobj\ntrailer << >>\n%%EOF\n", "latin1"),
  ]);
  for (const [name, data] of [
    ["script.pdf", scripted],
    ["oculto.pdf", hidden],
  ] as const) {
    const reply = await postReceipt(member.client, event.id, {
      name,
      data,
      type: "application/pdf",
    });
    expect(reply.status, name).toBe(400);
    expect(fieldErrorOf(reply.text, "comprobante"), name).toBe(
      `«${name}» es un PDF dañado o que no se puede leer. Envía una captura o una foto del comprobante.`,
    );
  }

  const heavy = await postReceipt(member.client, event.id, {
    name: "pesada.jpg",
    data: Buffer.alloc(server.config.uploadMaxBytes + 10, 7),
  });
  expect(heavy.status).toBe(413);

  const empty = new FormData();
  empty.append("comprobante", new Blob([]), "");
  const none = await member.client.request("POST", `/detalles/${event.id}/pago`, { body: empty });
  expect(none.status).toBe(400);
  expect(fieldErrorOf(none.text, "prueba")).toBe(
    "Elige la foto o el PDF del comprobante, o escribe el número de transacción.",
  );

  const two = new FormData();
  for (const n of [3, 4])
    two.append(
      "comprobante",
      new Blob([new Uint8Array(await receiptPhoto(n))], { type: "image/jpeg" }),
      `${n}.jpg`,
    );
  const twoReply = await member.client.request("POST", `/detalles/${event.id}/pago`, {
    body: two,
  });
  expect(twoReply.status).toBe(400);

  const wrongField = new FormData();
  wrongField.append("imagen", new Blob([new Uint8Array(await receiptPhoto(5))]), "x.jpg");
  expect(
    (await member.client.request("POST", `/detalles/${event.id}/pago`, { body: wrongField }))
      .status,
  ).toBe(400);

  expect(await before()).toEqual(was);
  expect(files()).toEqual(had);
});

test("the transaction number: bad input is a 4xx in Spanish and changes nothing; a good one holds the place until a treasurer decides; nothing more once confirmed", async () => {
  const event = await paidEvent(5);
  const member = await heldMember(event.id);
  const was = await server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  const neither = "Elige la foto o el PDF del comprobante, o escribe el número de transacción.";
  const bad: [Record<string, string>, string, string][] = [
    [{ intent: "transaction" }, "prueba", neither],
    [{ intent: "transaction", transactionNumber: "   " }, "prueba", neither],
    [
      { intent: "transaction", transactionNumber: "1".repeat(41) },
      "transactionNumber",
      "de 4 a 40",
    ],
    [
      { intent: "transaction", transactionNumber: "javascript:alert(1)" },
      "transactionNumber",
      "de 4 a 40",
    ],
    [{ intent: "transaction", transactionNumber: "<b>1234</b>" }, "transactionNumber", "de 4 a 40"],
  ];
  for (const [form, field, message] of bad) {
    const reply = await member.client.post(`/detalles/${event.id}/pago`, form);
    expect(reply.status, JSON.stringify(form)).toBe(400);
    expect(fieldErrorOf(reply.text, field)).toContain(message);
  }
  const extra = await member.client.post(`/detalles/${event.id}/pago`, {
    intent: "transaction",
    transactionNumber: "12345678",
    status: "confirmed",
  });
  expect(extra.status).toBe(400);
  expect((await member.client.post(`/detalles/${event.id}/pago`, { intent: "pagar" })).status).toBe(
    400,
  );
  const json = await member.client.request("POST", `/detalles/${event.id}/pago`, {
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  expect(await server.db.select().from(payments).where(eq(payments.id, member.payment.id))).toEqual(
    was,
  );

  const good = await member.client.post(`/detalles/${event.id}/pago`, {
    intent: "transaction",
    transactionNumber: "TRX-2026-000123",
  });
  expect(good.status).toBe(302);
  const [sent] = await server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  expect(sent).toMatchObject({
    status: "submitted",
    transactionNumber: "TRX-2026-000123",
    heldUntil: null,
  });
  // A hold sent in is not expired by the clock.
  await expireHolds(server.db, new Date(Date.now() + 100 * HOUR));
  const [kept] = await server.db.select().from(payments).where(eq(payments.id, sent!.id));
  expect(kept!.status).toBe("submitted");

  await server.db.update(payments).set({ status: "confirmed" }).where(eq(payments.id, sent!.id));
  const closed = await member.client.post(`/detalles/${event.id}/pago`, {
    intent: "transaction",
    transactionNumber: "OTRO-1234",
  });
  expect(closed.status).toBe(409);
  expect(closed.text).toContain("Tu pago ya está confirmado");
});

/** The payment page's one form: the receipt, the number, or both, in one multipart post. */
function postProof(
  client: BrowserClient,
  eventId: string,
  proof: { file?: { name: string; data: Buffer; type?: string }; number?: string },
) {
  const form = new FormData();
  form.append("intent", "pay");
  form.append(
    "comprobante",
    proof.file
      ? new Blob([new Uint8Array(proof.file.data)], { type: proof.file.type ?? "image/jpeg" })
      : new Blob([]),
    proof.file?.name ?? "",
  );
  form.append("transactionNumber", proof.number ?? "");
  return client.request("POST", `/detalles/${eventId}/pago`, { body: form });
}

test("the payment form takes the receipt or the transaction number, one form with one button: neither is refused in Spanish; either alone, or both, is taken", async () => {
  const event = await paidEvent(5);
  const page = await (await heldMember(event.id)).client.get(`/detalles/${event.id}/pago`);
  // One form on the page posts the payment, with one submit button.
  const forms = page.text.match(/<form[^>]*method="post"[^>]*>[\s\S]*?<\/form>/g) ?? [];
  const payForms = forms.filter((f) => f.includes('name="comprobante"'));
  expect(payForms).toHaveLength(1);
  expect(payForms[0]).toContain('name="transactionNumber"');
  expect(payForms[0]!.match(/type="submit"/g)).toHaveLength(1);
  expect(forms.some((f) => f.includes('value="transaction"'))).toBe(false);

  const member = await heldMember(event.id);
  const was = await server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  const none = await postProof(member.client, event.id, {});
  expect(none.status).toBe(400);
  expect(fieldErrorOf(none.text, "prueba")).toBe(
    "Elige la foto o el PDF del comprobante, o escribe el número de transacción.",
  );
  const blank = await postProof(member.client, event.id, { number: "  " });
  expect(blank.status).toBe(400);
  expect(fieldErrorOf(blank.text, "prueba")).toContain("o escribe el número de transacción");
  expect(await server.db.select().from(payments).where(eq(payments.id, member.payment.id))).toEqual(
    was,
  );

  const byNumber = await postProof(member.client, event.id, { number: "TRX-77 001" });
  expect(byNumber.status).toBe(302);
  const [numbered] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.id, member.payment.id));
  expect(numbered).toMatchObject({
    status: "submitted",
    transactionNumber: "TRX-77 001",
    receiptFile: null,
  });

  const other = await heldMember(event.id);
  const byReceipt = await postProof(other.client, event.id, {
    file: { name: "c.jpg", data: await receiptPhoto(21) },
  });
  expect(byReceipt.status).toBe(302);
  const [received] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.id, other.payment.id));
  expect(received!.status).toBe("submitted");
  expect(received!.receiptFile).toMatch(/^[0-9a-f]{32}\.jpg$/);
  expect(received!.transactionNumber).toBeNull();

  const third = await heldMember(event.id);
  const both = await postProof(third.client, event.id, {
    file: { name: "d.jpg", data: await receiptPhoto(22) },
    number: "BNB-123456",
  });
  expect(both.status).toBe(302);
  const [kept] = await server.db.select().from(payments).where(eq(payments.id, third.payment.id));
  expect(kept!.transactionNumber).toBe("BNB-123456");
  expect(kept!.receiptFile).toMatch(/\.jpg$/);
});

test("the payment form refuses, with every field's problem in Spanish and nothing changed: both malformed, a number too long, a hostile file, an unknown field", async () => {
  const event = await paidEvent(5);
  const member = await heldMember(event.id);
  const before = () => server.db.select().from(payments).where(eq(payments.id, member.payment.id));
  const was = await before();
  const files = () => fs.readdirSync(server.config.privateDir).sort();
  const had = files();

  const bothBad = await postProof(member.client, event.id, {
    file: { name: "recibo.jpg", data: Buffer.from("<script>alert(1)</script>\n".repeat(20)) },
    number: "<b>1</b>",
  });
  expect(bothBad.status).toBe(415);
  expect(fieldErrorOf(bothBad.text, "comprobante")).toBe(
    "«recibo.jpg» no es una foto (JPEG, PNG o WebP) ni un PDF.",
  );
  expect(fieldErrorOf(bothBad.text, "transactionNumber")).toContain("de 4 a 40");
  // What was typed comes back in its box, escaped.
  expect(bothBad.text).toContain('value="&lt;b&gt;1&lt;/b&gt;"');

  // A good receipt does not carry a bad number through: nothing is kept.
  const goodFileBadNumber = await postProof(member.client, event.id, {
    file: { name: "bien.jpg", data: await receiptPhoto(23) },
    number: "X".repeat(2000),
  });
  expect(goodFileBadNumber.status).toBe(400);
  expect(fieldErrorOf(goodFileBadNumber.text, "transactionNumber")).toContain("de 4 a 40");
  expect(fieldErrorOf(goodFileBadNumber.text, "comprobante")).toBeNull();

  const scripted = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    "latin1",
  );
  const hostile = await postProof(member.client, event.id, {
    file: { name: "../../etc/passwd.pdf", data: scripted, type: "application/pdf" },
    number: "TRX-0009",
  });
  expect(hostile.status).toBe(400);
  expect(fieldErrorOf(hostile.text, "comprobante")).toContain("es un PDF dañado");

  const extra = new FormData();
  extra.append("transactionNumber", "TRX-0010");
  extra.append("status", "confirmed");
  const unknown = await member.client.request("POST", `/detalles/${event.id}/pago`, {
    body: extra,
  });
  expect(unknown.status).toBe(400);

  expect(await before()).toEqual(was);
  expect(files()).toEqual(had);
});

test("the member's data download lists their payments; deleting the account removes their payments and their receipts from the private store", async () => {
  const event = await paidEvent(5);
  const member = await heldMember(event.id);
  expect(
    (await postReceipt(member.client, event.id, { name: "c.jpg", data: await receiptPhoto(9) }))
      .status,
  ).toBe(302);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.id, member.payment.id));
  const file = path.join(server.config.privateDir, payment!.receiptFile!);
  expect(fs.existsSync(file)).toBe(true);

  const download = await member.client.get("/profile/datos");
  expect(download.status).toBe(200);
  const body = JSON.parse(download.text) as { pagos: Record<string, unknown>[] };
  expect(body.pagos).toEqual([
    expect.objectContaining({
      referencia: payment!.reference,
      eventId: event.id,
      montoCentavos: 3000,
      estado: "submitted",
      comprobante: `/pagos/${payment!.id}/comprobante`,
    }),
  ]);

  const deleted = await member.client.post("/profile", {
    intent: "deleteAccount",
    confirmar: "eliminar",
  });
  expect(deleted.status).toBe(302);
  expect(
    await server.db.select().from(payments).where(eq(payments.userId, member.user.id)),
  ).toEqual([]);
  expect(fs.existsSync(file)).toBe(false);
  // Their place went to nobody (no one waiting), and the seat count is back.
  expect(await seatedIds(event.id)).not.toContain(member.user.id);
});
