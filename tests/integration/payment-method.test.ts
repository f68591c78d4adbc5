// Issue 35, part A (decision 048), through the real server: an event's price typed as people write
// it and kept in centavos; the treasurer, a role admins grant; the site's way to be paid set at
// /tesoreria — the bank's QR kept lossless in the private store, never under /imagenes, shown only
// to admins and treasurers — with bad input and every refusal.
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { auditLog, events, paymentMethod } from "~/db/schema.server";
import { grantRole } from "~/members/roles.server";
import { MESSAGES } from "~/messages";
import { BrowserClient } from "../helpers/browser-client";
import {
  ADMIN_EMAIL,
  alertsIn,
  createAdmin,
  createMember,
  eventFieldError,
  eventForm,
  landOn,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let treasurer: Awaited<ReturnType<typeof createMember>>;
let member: Awaited<ReturnType<typeof createMember>>;
let editor: Awaited<ReturnType<typeof createMember>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL, UPLOAD_MAX_MB: "1" });
  admin = await createAdmin(server);
  treasurer = await createMember(server);
  member = await createMember(server);
  editor = await createMember(server);
  await grantRole(server.db, admin.user, { userId: treasurer.user.id, kind: "treasurer" });
  await grantRole(server.db, admin.user, { userId: editor.user.id, kind: "editor" });
});
afterAll(async () => {
  await server?.close();
});

const privateFiles = () =>
  fs.existsSync(server.config.privateDir)
    ? fs.readdirSync(server.config.privateDir).filter((n) => !n.startsWith("."))
    : [];
const photos = () => fs.readdirSync(server.config.uploadsDir).filter((n) => !n.startsWith("."));

/** A QR-like picture: black and white modules of 8 px, which a lossy encoding would smear. */
async function qrPng(seed = 1, size = 264): Promise<Buffer> {
  const pixels = Buffer.alloc(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const module = (Math.floor(x / 8) * 31 + Math.floor(y / 8) * 17 + seed) % 3;
      pixels[y * size + x] = module === 0 ? 0 : 255;
    }
  return sharp(pixels, { raw: { width: size, height: size, channels: 1 } })
    .png()
    .withMetadata({ density: 300 })
    .withExif({ IFD0: { Make: "Banco de prueba", Software: "App del banco" } })
    .toBuffer();
}

async function rawPixels(image: Buffer) {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function postQr(client: BrowserClient | null, file: { name: string; data: Buffer; type?: string }) {
  const form = new FormData();
  form.append(
    "imagen",
    new Blob([new Uint8Array(file.data)], { type: file.type ?? "image/png" }),
    file.name,
  );
  return (client ?? new BrowserClient(server.url)).request("POST", "/tesoreria", { body: form });
}

const fieldError = (html: string, field: string) =>
  new RegExp(`<p class="field-error" id="tesoreria-${field}-error">([^<]*)</p>`).exec(html)?.[1] ??
  null;

// ——— The price ———

test("a price typed as people write it ('30', '30,50', 'Bs 1.200') is kept in centavos and shown as 'Bs 30,50'; blank is free", async () => {
  const cases: [string, number][] = [
    ["30", 3000],
    ["30,50", 3050],
    ["30.5", 3050],
    ["Bs 1.200", 120_000],
    ["", 0],
  ];
  for (const [typed, cents] of cases) {
    const name = `Curso a ${typed || "gratis"}`;
    const reply = await admin.client.post(
      "/admin",
      eventForm("publish", { nombreEvento: name }, [], undefined, { price: typed }),
    );
    expect(reply.status, typed).toBe(302);
    const [row] = await server.db.select().from(events).where(eq(events.nombreEvento, name));
    expect(row!.priceCents, typed).toBe(cents);
    const page = await member.client.get(`/detalles/${row!.id}`);
    if (cents === 3050) expect(page.text).toContain("<dt>Precio</dt><dd>Bs 30,50</dd>");
    if (cents === 0) expect(page.text).not.toContain("<dt>Precio</dt>");
    // The editor's form shows it as it was typed, the way it is read back.
    const edit = await admin.client.get(`/admin?editar=${row!.id}`);
    if (cents === 3050) expect(edit.text).toMatch(/id="evento-price"[^>]*value="30,50"/);
  }
});

test("a price that is not an amount is refused with a Spanish message, and nothing is published", async () => {
  const bad: [string, string][] = [
    ["treinta", "Escribe el precio en bolivianos"],
    ["-30", "Escribe el precio en bolivianos"],
    ["30,505", "Escribe el precio en bolivianos"],
    ["1,2,3", "Escribe el precio en bolivianos"],
    ["javascript:alert(1)", "Escribe el precio en bolivianos"],
    ["9".repeat(40), "Escribe el precio en bolivianos"],
    ["100001", "El precio puede ser como máximo Bs 100.000."],
  ];
  for (const [typed, message] of bad) {
    const name = `Curso malo ${typed.slice(0, 10)}`;
    const reply = await admin.client.post(
      "/admin",
      eventForm("publish", { nombreEvento: name }, [], undefined, { price: typed }),
    );
    expect(reply.status, typed).toBe(400);
    expect(eventFieldError(reply.text, "price"), typed).toContain(message);
    expect(await server.db.select().from(events).where(eq(events.nombreEvento, name))).toEqual([]);
  }
  // Two prices in one form: not a price either.
  const twice = eventForm("publish", { nombreEvento: "Curso doble" });
  twice.append("price", "30");
  twice.append("price", "40");
  expect((await admin.client.post("/admin", twice)).status).toBe(400);
});

// ——— The treasurer and /tesoreria ———

test("the treasurer, an admin and nobody else open /tesoreria; the treasurer's menu leads there", async () => {
  const page = await treasurer.client.get("/tesoreria");
  expect(page.status).toBe(200);
  expect(page.text).toContain("<h1>Tesorería</h1>");
  expect(page.text).toContain('href="/tesoreria"');
  expect((await admin.client.get("/tesoreria")).status).toBe(200);
  for (const someone of [member, editor]) {
    const refused = await someone.client.get("/tesoreria");
    expect(refused.status).toBe(302);
    const landed = await landOn(someone.client, refused);
    expect(alertsIn(landed.text).join(" ")).toMatch(/Acceso denegado|No tienes permiso/);
  }
  const visitor = await new BrowserClient(server.url).get("/tesoreria");
  expect(visitor.location).toContain("/login?redirectTo=%2Ftesoreria");
  // The role is in the admins' list of roles to give.
  expect((await admin.client.get(`/admin?usuario=${member.user.id}`)).text).toContain("Tesorería");
});

test("the payment data is saved by a treasurer, logged in the audit log, and shown back", async () => {
  const reply = await treasurer.client.post("/tesoreria", {
    intent: "method",
    accountHolder: "Asociación Ayllu",
    bank: "Banco Unión",
    instructions: "Escanea el QR y escribe tu código en la glosa.",
    qrExpiresOn: "2031-06-30",
  });
  expect(reply.status).toBe(302);
  const page = await landOn(treasurer.client, reply);
  expect(alertsIn(page.text)).toEqual([MESSAGES.paymentMethodSaved]);
  expect(page.text).toContain('value="Asociación Ayllu"');
  const [row] = await server.db.select().from(paymentMethod);
  expect(row).toMatchObject({
    accountHolder: "Asociación Ayllu",
    bank: "Banco Unión",
    qrExpiresOn: "2031-06-30",
    updatedBy: treasurer.user.id,
  });
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, "payments.method"));
  expect(entry).toMatchObject({ actorId: treasurer.user.id, role: "treasurer" });
});

test("bad payment data: too long, a date that is not one, an unknown field, a file in a text field, a malformed body — a 4xx in Spanish, nothing changed", async () => {
  const before = await server.db.select().from(paymentMethod);
  const base = {
    intent: "method",
    accountHolder: "A",
    bank: "B",
    instructions: "",
    qrExpiresOn: "",
  };
  const cases: [Record<string, string>, string, string][] = [
    [{ ...base, accountHolder: "x".repeat(121) }, "accountHolder", "Máximo 120 caracteres."],
    [{ ...base, instructions: "x".repeat(1001) }, "instructions", "Máximo 1000 caracteres."],
    [{ ...base, qrExpiresOn: "2031-02-30" }, "qrExpiresOn", "no es una fecha válida"],
    [{ ...base, qrExpiresOn: "javascript:alert(1)" }, "qrExpiresOn", "no es una fecha válida"],
  ];
  for (const [form, field, message] of cases) {
    const reply = await treasurer.client.post("/tesoreria", form);
    expect(reply.status, field).toBe(400);
    expect(fieldError(reply.text, field), field).toContain(message);
  }
  const unknown = await treasurer.client.post("/tesoreria", { ...base, isAdmin: "true" });
  expect(unknown.status).toBe(400);
  expect(alertsIn(unknown.text).join(" ")).toContain("campos que no se pueden cambiar");
  const intent = await treasurer.client.post("/tesoreria", { intent: "borrarTodo" });
  expect(intent.status).toBe(400);
  const json = await treasurer.client.request("POST", "/tesoreria", {
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  expect(json.text).toMatch(/[a-záéíóú]/);
  expect(await server.db.select().from(paymentMethod)).toEqual(before);
});

test("members, editors and visitors may not change the payment data or the QR: refused, nothing changed", async () => {
  const before = await server.db.select().from(paymentMethod);
  const files = privateFiles();
  const form = { intent: "method", accountHolder: "Intruso", bank: "Otro", instructions: "" };
  for (const client of [member.client, editor.client, new BrowserClient(server.url)]) {
    const reply = await client.post("/tesoreria", form);
    expect([302, 403]).toContain(reply.status);
    const qr = await postQr(client, { name: "qr.png", data: await qrPng(7) });
    expect([302, 403]).toContain(qr.status);
    const removed = await client.post("/tesoreria", { intent: "removeQr" });
    expect([302, 403]).toContain(removed.status);
  }
  expect(await server.db.select().from(paymentMethod)).toEqual(before);
  expect(privateFiles()).toEqual(files);
});

test("the bank's QR is kept lossless as a PNG in the private folder, without metadata, never under /imagenes, and shown only to admins and treasurers", async () => {
  const photosBefore = photos();
  const original = await qrPng(1);
  expect((await sharp(original).metadata()).exif).toBeDefined();
  const reply = await postQr(treasurer.client, { name: "qr-banco.png", data: original });
  expect(reply.status).toBe(302);
  const page = await landOn(treasurer.client, reply);
  expect(alertsIn(page.text)).toEqual([MESSAGES.paymentQrSaved]);
  expect(page.text).toMatch(/<img src="\/pago\/qr\.png\?v=[0-9a-f]{8}"/);

  const [row] = await server.db.select().from(paymentMethod);
  expect(row!.qrFile).toMatch(/^[0-9a-f]{32}\.png$/);
  expect(row!.qrUploadedAt).not.toBeNull();
  expect(privateFiles()).toEqual([row!.qrFile]);
  // Not a photo: nothing new among the public files, and no /imagenes address reaches it.
  expect(photos()).toEqual(photosBefore);
  expect(path.relative(server.config.uploadsDir, server.config.privateDir)).toMatch(/^\.\./);
  expect((await fetch(new URL(`/imagenes/${row!.qrFile}`, server.url))).status).toBe(404);
  expect((await fetch(new URL(`/imagenes/../privado/${row!.qrFile}`, server.url))).status).toBe(
    404,
  );

  for (const who of [treasurer, admin]) {
    const served = await who.client.request("GET", "/pago/qr.png");
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("private, no-store");
  }
  const bytes = fs.readFileSync(path.join(server.config.privateDir, row!.qrFile!));
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("png");
  expect(meta.exif).toBeUndefined();
  // The same pixels, every one: a QR's modules stay as sharp as the bank made them.
  const [a, b] = await Promise.all([rawPixels(original), rawPixels(bytes)]);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  expect(b.data.equals(a.data)).toBe(true);

  for (const client of [member.client, editor.client, new BrowserClient(server.url)]) {
    const refused = await client.request("GET", "/pago/qr.png");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).not.toContain("image");
  }

  // Audit: who uploaded it, under which role.
  const [entry] = await server.db.select().from(auditLog).where(eq(auditLog.action, "payments.qr"));
  expect(entry).toMatchObject({ actorId: treasurer.user.id, role: "treasurer" });
});

test("a JPEG QR becomes a PNG; replacing the QR removes the old file; 'Quitar QR' removes it", async () => {
  const jpeg = await sharp(await qrPng(2))
    .jpeg({ quality: 95 })
    .toBuffer();
  const first = await postQr(admin.client, { name: "qr.jpg", data: jpeg, type: "image/jpeg" });
  expect(first.status).toBe(302);
  const [one] = await server.db.select().from(paymentMethod);
  expect(one!.qrFile).toMatch(/\.png$/);
  expect(privateFiles()).toEqual([one!.qrFile]);

  const second = await postQr(admin.client, { name: "nuevo.png", data: await qrPng(3) });
  expect(second.status).toBe(302);
  const [two] = await server.db.select().from(paymentMethod);
  expect(two!.qrFile).not.toBe(one!.qrFile);
  expect(privateFiles()).toEqual([two!.qrFile]);

  const removed = await admin.client.post("/tesoreria", { intent: "removeQr" });
  expect(removed.status).toBe(302);
  const [none] = await server.db.select().from(paymentMethod);
  expect(none!.qrFile).toBeNull();
  expect(privateFiles()).toEqual([]);
  expect((await admin.client.request("GET", "/pago/qr.png")).status).toBe(404);
});

test("hostile QR files are refused with a Spanish message and nothing is stored: text named .png, a PDF, too large, two files, another field, a cut body", async () => {
  const before = await server.db.select().from(paymentMethod);
  const files = privateFiles();
  const text = await postQr(treasurer.client, {
    name: "qr.png",
    data: Buffer.from("esto no es una imagen\n".repeat(30)),
  });
  expect(text.status).toBe(415);
  expect(fieldError(text.text, "qr")).toBe("«qr.png» no es una imagen PNG, JPEG o WebP.");

  const pdf = await postQr(treasurer.client, {
    name: "qr.pdf",
    data: Buffer.from("%PDF-1.4\n1 0 obj << /JS (app.alert(1)) >> endobj\n%%EOF\n"),
    type: "application/pdf",
  });
  expect(pdf.status).toBe(415);

  const gif = await sharp(await qrPng(4))
    .gif()
    .toBuffer();
  expect((await postQr(treasurer.client, { name: "qr.gif", data: gif })).status).toBe(415);

  const heavy = await postQr(treasurer.client, {
    name: "pesada.png",
    data: Buffer.alloc(1024 * 1024 + 10, 7),
  });
  expect(heavy.status).toBe(413);
  expect(fieldError(heavy.text, "qr")).toBe("«pesada.png» pesa más de 1 MB, el máximo por imagen.");

  const two = new FormData();
  for (const n of [5, 6])
    two.append(
      "imagen",
      new Blob([new Uint8Array(await qrPng(n))], { type: "image/png" }),
      "q.png",
    );
  const twoReply = await treasurer.client.request("POST", "/tesoreria", { body: two });
  expect(twoReply.status).toBe(400);
  expect(fieldError(twoReply.text, "qr")).toBe("Elige una sola imagen.");

  const other = new FormData();
  other.append("otro", "valor");
  const otherReply = await treasurer.client.request("POST", "/tesoreria", { body: other });
  expect(otherReply.status).toBe(400);

  const cut = await treasurer.client.request("POST", "/tesoreria", {
    body: '--x\r\nContent-Disposition: form-data; name="imagen"; filename="a.png"\r\n\r\nabc',
    headers: { "Content-Type": "multipart/form-data; boundary=x" },
  });
  expect(cut.status).toBeGreaterThanOrEqual(400);
  expect(cut.status).toBeLessThan(500);

  const empty = new FormData();
  empty.append("imagen", new Blob([]), "");
  const emptyReply = await treasurer.client.request("POST", "/tesoreria", { body: empty });
  expect(emptyReply.status).toBe(400);
  expect(fieldError(emptyReply.text, "qr")).toBe("Elige una imagen.");

  expect(await server.db.select().from(paymentMethod)).toEqual(before);
  expect(privateFiles()).toEqual(files);
});

test("the page warns when the bank's QR is about to expire or has expired", async () => {
  await postQr(treasurer.client, { name: "qr.png", data: await qrPng(8) });
  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const save = (qrExpiresOn: string) =>
    treasurer.client.post("/tesoreria", {
      intent: "method",
      accountHolder: "Asociación Ayllu",
      bank: "Banco Unión",
      instructions: "",
      qrExpiresOn,
    });
  // The page's text, without the markers React puts between joined strings.
  const shown = async () =>
    (await treasurer.client.get("/tesoreria")).text.replaceAll("<!-- -->", "");
  await save(inDays(10));
  expect(await shown()).toContain("(en menos de 30 días)");
  await save(inDays(-2));
  expect(await shown()).toContain("ya no acepta pagos");
  await save(inDays(200));
  const far = await shown();
  expect(far).not.toContain("ya no acepta pagos");
  expect(far).not.toContain("(en menos de 30 días)");
});

test("the hours a place is held for its payment: 48 by default, 1 to 720 as typed, anything else refused by its field", async () => {
  const name = "Curso con reserva";
  const ok = await admin.client.post(
    "/admin",
    eventForm("publish", { nombreEvento: name }, [], undefined, { price: "30", holdHours: "24" }),
  );
  expect(ok.status).toBe(302);
  const [row] = await server.db.select().from(events).where(eq(events.nombreEvento, name));
  expect(row!.holdHours).toBe(24);
  const [free] = await server.db.select().from(events).where(eq(events.nombreEvento, "Curso a 30"));
  expect(free!.holdHours).toBe(48);
  for (const typed of ["0", "721", "doce", "1.5", "-3", "javascript:alert(1)"]) {
    const reply = await admin.client.post(
      "/admin",
      eventForm("publish", { nombreEvento: `Reserva ${typed}` }, [], undefined, {
        holdHours: typed,
      }),
    );
    expect(reply.status, typed).toBe(400);
    expect(eventFieldError(reply.text, "holdHours"), typed).toContain("de 1 a 720");
  }
});
