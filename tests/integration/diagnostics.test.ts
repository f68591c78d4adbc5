// 'Diagnóstico' (/admin/diagnostico) through the real server: admins see every line with what is
// wrong and how to fix it, from this very request (its addresses, its X-Forwarded-* headers);
// 'Enviar correo de prueba' reaches a real SMTP server on loopback, once a minute, to the admin's
// own address; nobody else sees the page or sends the mail.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { backupRuns } from "~/db/schema.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

let server: TestServer;
let smtp: TestSmtp;
let backups: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  backups = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copias-"));
  server = await startTestServer({
    ADMIN_EMAILS: "jefa@example.com",
    SMTP_URL: smtp.url,
    MAIL_FROM: "Ayllu <eventos@ayllu.example>",
    BACKUP_DIR: backups,
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  fs.rmSync(backups, { recursive: true, force: true });
});

failOnConsoleError();

/** The text of a page, without tags or React's comments. */
function textOf(html: string): string {
  return html
    .replaceAll("<!-- -->", "")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replace(/\s+/g, " ");
}

/** Test mails the SMTP server has received so far. */
const testMails = () =>
  smtp.received.filter((m) => m.subject === "Correo de prueba de Ayllu").length;

/** The text of the card of one line, by its key (its heading's id is diag-KEY). */
function section(html: string, key: string): string {
  const start = html.indexOf(`aria-labelledby="diag-${key}"`);
  expect(start, `no hay una sección ${key}`).toBeGreaterThan(-1);
  return textOf(html.slice(start, html.indexOf("</section>", start)));
}

test("an admin sees every line: version, address, proxy, sign-in, mail, storage, backups, database, processes", async () => {
  const { client } = await createAdmin(server);
  const page = await client.get("/admin/diagnostico");
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toContain("no-store");
  const text = textOf(page.text);
  for (const title of [
    "Versión",
    "Dirección pública",
    "Tu conexión y el proxy",
    "Inicio de sesión",
    "Correo",
    "Almacenamiento",
    "Copias de seguridad",
    "Archivos que nombra la base de datos",
    "Base de datos",
    "Procesos",
  ])
    expect(text).toContain(title);
  expect(section(page.text, "version")).toContain(process.versions.node);
  expect(section(page.text, "direccion")).toContain(server.url.origin);
  // The site reached itself through PUBLIC_URL and knew its own answer.
  expect(section(page.text, "direccion")).toContain(
    `Desde el propio servidor ${server.url.origin} responde, y es este sitio`,
  );
  const copies = section(page.text, "copias");
  expect(copies).toContain("Se puede escribir sí");
  expect(copies).toMatch(/Espacio libre [\d,.]+ [KMGT]?B/);
  expect(section(page.text, "inicio")).toContain(`${server.url.origin}/auth/callback`);
  const mail = section(page.text, "correo");
  // The SMTP server greeted the probe.
  expect(mail).toContain("Conexión responde (sin usuario ni clave)");
  expect(mail).toMatch(/Correo Bien/);
  expect(mail).toMatch(/Correos en cola \d+/);
  expect(mail).toContain("Último error ninguno");
  expect(mail).toContain("Enviar correo de prueba");
  const database = section(page.text, "base");
  expect(database).toMatch(
    /Migraciones \d+ aplicadas; la última que conoce esta versión es \d{4}_/,
  );
  expect(section(page.text, "almacenamiento")).toContain("Se puede escribir sí");
  // No backup yet: the page says how to make one.
  expect(section(page.text, "copias")).toContain("./ayllu backup");
  expect(section(page.text, "procesos")).toContain("WEB_CONCURRENCY) 1");
});

test("the last backup's time and size show once one is recorded; a failed one says why", async () => {
  const { client } = await createAdmin(server);
  const at = new Date();
  await server.db.insert(backupRuns).values({
    id: "copia-buena",
    startedAt: at,
    finishedAt: at,
    file: "ayllu-2026-11-27T030000Z.ayllu.gz",
    bytes: 3 * 1024 * 1024,
    bucketCopy: null,
    error: null,
  });
  let copies = section((await client.get("/admin/diagnostico")).text, "copias");
  expect(copies).toContain("3 MB (ayllu-2026-11-27T030000Z.ayllu.gz)");
  expect(copies).toContain("Bien");
  await server.db.insert(backupRuns).values({
    id: "copia-mala",
    startedAt: new Date(at.getTime() + 1000),
    finishedAt: new Date(at.getTime() + 2000),
    file: "ayllu-2026-11-27T030001Z.ayllu.gz",
    error: "ENOSPC: no queda espacio en el disco",
  });
  copies = section((await client.get("/admin/diagnostico")).text, "copias");
  expect(copies).toContain("Corregir");
  // The error's code in words, and as it came among the facts.
  expect(copies).toMatch(/falló: El disco de .* \(BACKUP_DIR\) está lleno/);
  expect(copies).toContain("Error de la última copia ENOSPC: no queda espacio en el disco");
  await server.db.delete(backupRuns);
});

test("a proxy in front that TRUST_PROXY does not count shows at once, with the fix", async () => {
  const { client } = await createAdmin(server);
  const page = await client.request("GET", "/admin/diagnostico", {
    headers: { "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https" },
  });
  const proxy = section(page.text, "proxy");
  expect(proxy).toContain("X-Forwarded-For 203.0.113.7");
  expect(proxy).toContain("X-Forwarded-Proto https");
  expect(proxy).toContain("Corregir");
  expect(proxy).toContain("Pon TRUST_PROXY=1");
  // Untrusted, the header does not change the client's address.
  expect(proxy).toContain("Tu dirección según el sitio 127.0.0.1");
});

test("'Enviar correo de prueba' reaches the SMTP server, to the admin's own address, once a minute", async () => {
  const { client } = await createAdmin(server);
  const before = testMails();
  const sent = await client.post("/admin/diagnostico", { intent: "testMail" });
  expect(sent.status).toBe(200);
  expect(textOf(sent.text)).toContain("Correo de prueba enviado a jefa@example.com");
  // Sent before the answer: it is already there.
  expect(testMails()).toBe(before + 1);
  const mail = smtp.received.findLast((m) => m.subject === "Correo de prueba de Ayllu");
  expect(mail!.to).toMatchObject({ text: "jefa@example.com" });
  const again = await client.post("/admin/diagnostico", { intent: "testMail" });
  expect(again.status).toBe(429);
  expect(textOf(again.text)).toContain("menos de un minuto");
  expect(testMails()).toBe(before + 1);
});

test("a refusing SMTP server's answer is shown with what to check", async () => {
  const other = await startTestServer({ ADMIN_EMAILS: "otra@example.com", SMTP_URL: smtp.url });
  try {
    const { client } = await createMember(other, "otra@example.com", "Otra Admin");
    smtp.mode = "reject-permanently";
    const reply = await client.post("/admin/diagnostico", { intent: "testMail" });
    expect(reply.status).toBe(502);
    expect(textOf(reply.text)).toMatch(/El servidor SMTP no aceptó el correo: .*Revisa SMTP_URL/);
  } finally {
    smtp.mode = "accept";
    await other.close();
  }
});

test("without SMTP the button is off and a post is refused with the reason", async () => {
  const other = await startTestServer({ ADMIN_EMAILS: "tercera@example.com" });
  try {
    const { client } = await createMember(other, "tercera@example.com", "Tercera Admin");
    const page = await client.get("/admin/diagnostico");
    expect(page.text).toMatch(
      /<button type="submit" class="button" disabled="">Enviar correo de prueba/,
    );
    const reply = await client.post("/admin/diagnostico", { intent: "testMail" });
    expect(reply.status).toBe(409);
    expect(textOf(reply.text)).toContain("No hay servidor SMTP configurado");
  } finally {
    await other.close();
  }
});

test("members and visitors neither see the page nor send the mail", async () => {
  const { client: member } = await createMember(server);
  const before = testMails();
  const page = await member.get("/admin/diagnostico");
  expect(page.status).toBe(302);
  expect(pathOf(page.location)).toBe("/inicio");
  expect((await member.post("/admin/diagnostico", { intent: "testMail" })).status).toBe(403);
  const visitor = new BrowserClient(server.url);
  expect(pathOf((await visitor.get("/admin/diagnostico")).location)).toMatch(/^\/login/);
  expect([302, 403]).toContain(
    (await visitor.post("/admin/diagnostico", { intent: "testMail" })).status,
  );
  expect(testMails()).toBe(before);
});

test("bad posts change nothing: unknown intent, no intent, a malformed body", async () => {
  const { client } = await createAdmin(server);
  const before = testMails();
  expect((await client.post("/admin/diagnostico", { intent: "borrar-todo" })).status).toBe(400);
  expect((await client.post("/admin/diagnostico", {})).status).toBe(400);
  const malformed = await client.request("POST", "/admin/diagnostico", {
    body: "%%%=%E0%A4%A",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(malformed.status).toBeGreaterThanOrEqual(400);
  expect(malformed.status).toBeLessThan(500);
  expect(testMails()).toBe(before);
});
