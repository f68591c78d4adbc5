// Sign-in by a link sent by e-mail (issue 31), through the real mail path: the site sends to a
// real SMTP server on loopback and the test follows the link the mail carries. Single use, 15
// minutes, bound to the browser that asked (another one confirms with a POST), no account
// enumeration, one account per person (imported members and Google accounts included), a shared
// address reaching nobody, ADMIN_EMAILS, bad input, and the limit per address.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, like, sql } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, expect, test, vi } from "vitest";
import { mailOutbox, signInLinks, signInAttempts, users } from "~/db/schema.server";
import { EMAIL_ISSUER, IMPORTED_ISSUER } from "~/members/account-link.server";
import { EMAIL_LINK_MESSAGES } from "~/members/messages";
import { writeBackup } from "#server/backup/backup.server";
import { importFirebase } from "#server/import/import.server";
import { readExportFiles } from "#server/import/read-export.server";
import { BrowserClient, pathOf, type Reply } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { FIXTURE_FILES } from "../helpers/firebase";
import { startConfiguredServer } from "../helpers/configured-server";
import { startTestServer, type TestServer } from "../helpers/server";
import { signIn } from "../helpers/sign-in";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

let server: TestServer;
let smtp: TestSmtp;
let clock = Date.now();

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startTestServer(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Ayllu <entrar@ayllu.example>",
      ADMIN_EMAILS: "jefa@example.com",
      EMAIL_LINKS_PER_ADDRESS: "3",
      EMAIL_LINKS_PER_CLIENT: "1000",
    },
    { now: () => new Date(clock) },
  );
  await importFirebase(server.db, await readExportFiles(FIXTURE_FILES), {
    timeZone: "America/La_Paz",
  });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.mode = "accept";
  clock = Date.now();
});

failOnConsoleError();

/** A page's HTML without the comments React puts between pieces of text. */
const plain = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");

/** Asks for a link in `client` and returns the page's answer and the mail that arrived. */
async function requestLink(
  client: BrowserClient,
  email: string,
  extra: Record<string, string> = {},
): Promise<{ reply: Reply; mail: ParsedMail; link: string }> {
  const count = smtp.received.length;
  const reply = await client.post("/login/correo", { email, ...extra });
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  // The sign-in mail to this address (other mail, a welcome, may arrive meanwhile).
  const address = email.trim().toLowerCase();
  const isLink = (m: ParsedMail) =>
    m.subject === "Tu enlace para iniciar sesión en Ayllu" &&
    JSON.stringify(m.to).toLowerCase().includes(address);
  let mail = smtp.received.slice(count).find(isLink);
  while (!mail) {
    await smtp.waitFor(smtp.received.length + 1);
    mail = smtp.received.slice(count).find(isLink);
  }
  const link = /https?:\/\/\S+\/login\/enlace\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? "")?.[0];
  expect(link).toBeTruthy();
  return { reply, mail: mail!, link: link! };
}

async function accountsWith(email: string) {
  return server.db
    .select()
    .from(users)
    .where(sql`lower(trim(${users.email})) = ${email}`);
}

test("a link asked for on /login arrives by mail and signs a newcomer in, who then completes the additional data", async () => {
  const client = new BrowserClient(server.url);
  const login = await client.get("/login");
  expect(plain(login.text)).toContain("Recibir un enlace por correo");
  expect(login.text).toContain("Iniciar Sesión con Google");

  const { reply, mail, link } = await requestLink(client, "  Nueva.Persona@Example.com ");
  const page = plain(reply.text);
  expect(page).toContain("Revisa tu correo");
  expect(page).toContain("Nueva.Persona@Example.com");
  expect(page).not.toContain("/login/enlace/");
  expect(reply.headers.get("cache-control")).toContain("no-store");

  // The mail: to the address as typed, Spanish, the site's name, the link as button and text.
  const to = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((a) => a?.value ?? []);
  expect(to.map((a) => a.address?.toLowerCase())).toEqual(["nueva.persona@example.com"]);
  expect(mail.from?.value).toEqual([{ name: "Ayllu", address: "entrar@ayllu.example" }]);
  expect(mail.subject).toBe("Tu enlace para iniciar sesión en Ayllu");
  expect(mail.text).toContain("caduca en 15 minutos");
  expect(mail.text).toContain("ignora este correo");
  expect(mail.html).toContain(`href="${link}"`);
  expect(mail.html).toContain(">Iniciar sesión</a>");
  expect(mail.html).toContain(`>${link}</a>`);
  expect(mail.html).toContain("#0b1020");
  // Transactional: no unsubscribe.
  expect(mail.headers.has("list-unsubscribe")).toBe(false);
  expect(mail.text).not.toContain("/correo/baja/");
  expect(mail.text).toContain("no se puede desactivar");
  // The mail as received, for its screenshot (SHOTS_DIR).
  if (process.env.SHOTS_DIR) {
    fs.mkdirSync(process.env.SHOTS_DIR, { recursive: true });
    fs.writeFileSync(path.join(process.env.SHOTS_DIR, "correo-enlace.html"), String(mail.html));
  }

  // Only hashes are kept.
  const token = link.split("/").at(-1)!;
  const rows = await server.db.select().from(signInLinks);
  expect(JSON.stringify(rows)).not.toContain(token);
  expect(rows.find((r) => r.email === "nueva.persona@example.com")).toBeTruthy();

  const followed = await client.get(link);
  expect(followed.status).toBe(302);
  expect(pathOf(followed.location)).toBe("/aditionaldata");
  const [created] = await accountsWith("nueva.persona@example.com");
  expect(created).toMatchObject({
    issuer: EMAIL_ISSUER,
    subject: "nueva.persona@example.com",
    emailVerified: true,
    isAdmin: false,
  });
  expect((await client.get("/aditionaldata")).status).toBe(200);

  // Used once: the same link again, even in the same browser, signs nobody in.
  const again = await new BrowserClient(server.url).get(link);
  expect(again.status).toBe(400);
  expect(plain(again.text)).toContain(EMAIL_LINK_MESSAGES.invalid);
  const reused = await client.get(link);
  expect(reused.status).toBe(400);
});

test("the answer is the same for a known and an unknown address", async () => {
  await signIn(new BrowserClient(server.url), { email: "conocida@example.com" });
  const known = await requestLink(new BrowserClient(server.url), "conocida@example.com");
  const unknown = await requestLink(new BrowserClient(server.url), "desconocida@example.com");
  expect(known.reply.status).toBe(unknown.reply.status);
  // Alike but for the address (and the Content-Security-Policy nonce of each response).
  const same = (html: string, address: string) =>
    plain(html)
      // The address is shown with break points (<wbr>) between its parts.
      .replace(/<\/?span[^>]*>|<wbr\/>/g, "")
      .replaceAll(address, "X@")
      .replace(/nonce="[^"]*"/g, "");
  expect(same(known.reply.text, "conocida@")).toBe(same(unknown.reply.text, "desconocida@"));
  expect(known.mail.subject).toBe(unknown.mail.subject);
  // Nothing is created before the link is followed.
  expect(await accountsWith("desconocida@example.com")).toHaveLength(0);
});

test("a link opened in another browser asks to confirm; the GET uses nothing, the POST signs in", async () => {
  const asker = new BrowserClient(server.url);
  const { link } = await requestLink(asker, "otro-dispositivo@example.com", {
    redirectTo: "/eventos",
  });
  const scanner = new BrowserClient(server.url);
  for (let i = 0; i < 2; i++) {
    const page = await scanner.get(link);
    expect(page.status).toBe(200);
    expect(plain(page.text)).toContain("¿Iniciar sesión en este dispositivo?");
    expect(plain(page.text)).toContain("otro-dispositivo@example.com");
    expect(page.headers.get("cache-control")).toContain("no-store");
    expect(page.headers.get("set-cookie")).toBeNull();
  }
  expect(await accountsWith("otro-dispositivo@example.com")).toHaveLength(0);

  // A post from another site is refused before anything is used.
  const foreign = await scanner.post(
    new URL(link).pathname,
    {},
    { origin: "https://evil.example" },
  );
  expect(foreign.status).toBeGreaterThanOrEqual(400);
  expect(foreign.status).toBeLessThan(500);

  const other = new BrowserClient(server.url);
  const confirmed = await other.post(new URL(link).pathname, {});
  expect(confirmed.status).toBe(302);
  expect(pathOf(confirmed.location)).toBe("/aditionaldata?redirectTo=%2Feventos");
  expect(await accountsWith("otro-dispositivo@example.com")).toHaveLength(1);
  // Used up: the browser that asked gets nothing from it now.
  expect((await asker.get(link)).status).toBe(400);
});

test("a link expires after 15 minutes", async () => {
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "tarde@example.com");
  clock += 15 * 60_000 + 1000;
  const late = await client.get(link);
  expect(late.status).toBe(400);
  expect(plain(late.text)).toContain(EMAIL_LINK_MESSAGES.invalid);
  expect((await client.post(new URL(link).pathname, {})).status).toBe(400);
  expect(await accountsWith("tarde@example.com")).toHaveLength(0);

  clock = Date.now();
  const second = await requestLink(client, "tarde@example.com");
  clock += 14 * 60_000;
  expect((await client.get(second.link)).status).toBe(302);
});

test("forged and malformed links sign nobody in", async () => {
  const client = new BrowserClient(server.url);
  await requestLink(client, "forjado@example.com");
  const forged = randomBytes(32).toString("base64url");
  for (const token of [forged, "abc", "x".repeat(500), "%00", forged.slice(0, 42) + "!"]) {
    const get = await client.get(`/login/enlace/${token}`);
    expect(get.status, token).toBe(400);
    expect(plain(get.text)).toContain(EMAIL_LINK_MESSAGES.invalid);
    const post = await client.post(`/login/enlace/${token}`, {});
    expect(post.status, token).toBe(400);
  }
  const json = await client.request("POST", `/login/enlace/${forged}`, {
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  expect(await accountsWith("forjado@example.com")).toHaveLength(0);
});

test("bad addresses are refused with a Spanish message and nothing is sent or stored", async () => {
  const client = new BrowserClient(server.url);
  const before = smtp.received.length;
  const links = await server.db.$count(signInLinks);
  const cases: [Record<string, string>, string][] = [
    [{}, "Escribe tu correo electrónico."],
    [{ email: "" }, "Escribe tu correo electrónico."],
    [{ email: "   " }, "Escribe tu correo electrónico."],
    [{ email: "sin-arroba" }, "Escribe un correo electrónico válido"],
    [{ email: "javascript:alert(1)" }, "Escribe un correo electrónico válido"],
    [{ email: "a@b" }, "Escribe un correo electrónico válido"],
    [{ email: `${"a".repeat(250)}@example.com` }, "como máximo 254 caracteres"],
    [{ email: "dos@example.com\r\nBcc: x@example.com" }, "Escribe un correo electrónico válido"],
  ];
  for (const [fields, message] of cases) {
    const reply = await client.post("/login/correo", fields);
    expect(reply.status, JSON.stringify(fields)).toBe(400);
    expect(plain(reply.text)).toContain(message);
  }
  const json = await client.request("POST", "/login/correo", {
    body: JSON.stringify({ email: "a@example.com" }),
    headers: { "Content-Type": "application/json" },
  });
  expect(json.status).toBe(400);
  expect(smtp.received.length).toBe(before);
  expect(await server.db.$count(signInLinks)).toBe(links);
  // The form's address shows the form alone.
  const get = await client.get("/login/correo");
  expect(get.status).toBe(200);
  expect(plain(get.text)).toContain("Recibir un enlace por correo");
});

test("an address may be sent a few links an hour, counted in the database; past that, a 429", async () => {
  const client = new BrowserClient(server.url);
  for (let i = 0; i < 3; i++) await requestLink(client, "insistente@example.com");
  const before = smtp.received.length;
  const refused = await client.post("/login/correo", { email: "INSISTENTE@example.com " });
  expect(refused.status).toBe(429);
  expect(plain(refused.text)).toContain(EMAIL_LINK_MESSAGES.tooMany);
  expect(refused.headers.get("retry-after")).toBe("3600");
  expect(smtp.received.length).toBe(before);
  const [row] = await server.db
    .select()
    .from(signInAttempts)
    .where(eq(signInAttempts.client, "link-address:insistente@example.com"));
  expect(row?.hits).toBe(4);
  expect(
    await server.db.$count(signInAttempts, like(signInAttempts.client, "link-client:%")),
  ).toBeGreaterThan(0);
  // Another address from the same client is still served.
  await requestLink(client, "paciente@example.com");
});

test("an SMTP server that refuses gives a Spanish message and a 503", async () => {
  smtp.mode = "reject-temporarily";
  const logged = vi.spyOn(console, "error").mockImplementation(() => {});
  const reply = await new BrowserClient(server.url).post("/login/correo", {
    email: "sin-correo@example.com",
  });
  expect(reply.status).toBe(503);
  expect(plain(reply.text)).toContain(EMAIL_LINK_MESSAGES.sendFailed);
  // The failure is logged for the operator (and only that).
  expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
    "No se pudo enviar el enlace de inicio de sesión:",
  ]);
  logged.mockClear();
}, 30_000);

test("a Google account and a link for its address reach the same account", async () => {
  expect(await signIn(new BrowserClient(server.url), { email: "google@example.com" })).toBe(
    "/aditionaldata",
  );
  const [google] = await accountsWith("google@example.com");
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "Google@Example.com");
  expect((await client.get(link)).status).toBe(302);
  const all = await accountsWith("google@example.com");
  expect(all).toHaveLength(1);
  expect(all[0]!.id).toBe(google!.id);
  expect(all[0]!.issuer).toBe(google!.issuer);
});

test("a member who came by link is the same account when they later sign in with Google", async () => {
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "primero-enlace@example.com");
  expect((await client.get(link)).status).toBe(302);
  const [first] = await accountsWith("primero-enlace@example.com");
  expect(first!.issuer).toBe(EMAIL_ISSUER);
  await signIn(new BrowserClient(server.url), { email: "primero-enlace@example.com" });
  const all = await accountsWith("primero-enlace@example.com");
  expect(all).toHaveLength(1);
  expect(all[0]!.id).toBe(first!.id);
  expect(all[0]!.issuer).toBe(new URL("/__dev/oidc", server.url).toString());
  // And by link again, in a browser not signed in.
  const fresh = new BrowserClient(server.url);
  const next = await requestLink(fresh, "primero-enlace@example.com");
  expect((await fresh.get(next.link)).status).toBe(302);
  expect(await accountsWith("primero-enlace@example.com")).toHaveLength(1);
});

test("an imported member is reached by link at their imported e-mail, then by Google: one account", async () => {
  const [imported] = await server.db.select().from(users).where(eq(users.firebaseUid, "uNoAuth"));
  expect(imported!.issuer).toBe(IMPORTED_ISSUER);
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "sin.auth@example.com");
  const followed = await client.get(link);
  expect(followed.status).toBe(302);
  // Their imported profile is complete: home, not the additional data.
  expect(pathOf(followed.location)).toBe("/");
  const profile = plain((await client.get("/profile")).text);
  expect(profile).toContain("Sin Cuenta Auth");
  // The mail settings say which mails are transactional.
  expect(profile).toContain("Correos de servicio");
  expect(profile).toContain("El enlace para iniciar sesión, cuando lo pides en Iniciar Sesión");

  expect(await signIn(new BrowserClient(server.url), { email: "Sin.Auth@example.com" })).toBe("/");
  const all = await accountsWith("sin.auth@example.com");
  expect(all).toHaveLength(1);
  expect(all[0]!.id).toBe(imported!.id);

  // Ana, whose Google account is known, is reached by link too, and by Google after it.
  const ana = new BrowserClient(server.url);
  const anaLink = await requestLink(ana, "ana.quispe@example.com");
  expect((await ana.get(anaLink.link)).status).toBe(302);
  expect(plain((await ana.get("/profile")).text)).toContain("Ana Quispe Mamani");
  await signIn(new BrowserClient(server.url), {
    email: "otra@example.com",
    subject: "108000000000000000001",
  });
  const [anaRow] = await server.db.select().from(users).where(eq(users.firebaseUid, "uGoogleAna"));
  expect(anaRow!.subject).toBe("108000000000000000001");
  expect(await accountsWith("ana.quispe@example.com")).toHaveLength(1);
});

test("an address shared by two imported members signs in to neither", async () => {
  const before = await accountsWith("dup@example.com");
  expect(before).toHaveLength(2);
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "dup@example.com");
  const reply = await client.get(link);
  expect(reply.status).toBe(409);
  expect(plain(reply.text)).toContain(EMAIL_LINK_MESSAGES.sharedAddress);
  expect((await client.get("/profile")).status).toBe(302);
  expect(await accountsWith("dup@example.com")).toEqual(before);
  // On another device, the confirmation's POST is refused alike.
  const second = await requestLink(client, "dup@example.com");
  const other = await new BrowserClient(server.url).post(new URL(second.link).pathname, {});
  expect(other.status).toBe(409);
});

test("ADMIN_EMAILS applies to a link as to Google", async () => {
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "Jefa@Example.com");
  expect((await client.get(link)).status).toBe(302);
  const [jefa] = await accountsWith("jefa@example.com");
  expect(jefa!.isAdmin).toBe(true);
});

test("someone signed in who asks for a link goes where a sign-in would take them", async () => {
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "ya-dentro@example.com");
  await client.get(link);
  const again = await client.post("/login/correo", { email: "otra@example.com" });
  expect(again.status).toBe(302);
  expect(pathOf(again.location)).toBe("/aditionaldata");
});

test("deleting an account removes the links pending for its address", async () => {
  const client = new BrowserClient(server.url);
  const { link } = await requestLink(client, "se-va@example.com");
  await client.get(link);
  const saved = await client.post("/aditionaldata", {
    nombreCompleto: "Se Va",
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    ciudad: "La Paz",
    genero: "Otro",
    habilidades: "",
  });
  expect(saved.status).toBe(302);
  await requestLink(new BrowserClient(server.url), "se-va@example.com");
  expect(await server.db.$count(signInLinks, eq(signInLinks.email, "se-va@example.com"))).toBe(1);
  const reply = await client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" });
  expect(reply.status).toBeLessThan(400);
  expect(await accountsWith("se-va@example.com")).toHaveLength(0);
  expect(await server.db.$count(signInLinks, eq(signInLinks.email, "se-va@example.com"))).toBe(0);
});

test("outside production without SMTP the page shows the person their own link, and no mail is queued", async () => {
  const dev = await startTestServer();
  try {
    const client = new BrowserClient(dev.url);
    const outbox = await dev.db.$count(mailOutbox);
    const reply = await client.post("/login/correo", { email: "portatil@example.com" });
    expect(reply.status).toBe(200);
    const page = plain(reply.text);
    expect(page).toContain("Revisa tu correo");
    expect(page).toContain("sin SMTP_URL");
    const link = /href="(https?:\/\/[^"]+\/login\/enlace\/[A-Za-z0-9_-]{43})"/.exec(
      reply.text,
    )?.[1];
    expect(link).toBeTruthy();
    expect(await dev.db.$count(mailOutbox)).toBe(outbox);
    // Another browser asking for the same address sees its own link, not this one.
    const stranger = await new BrowserClient(dev.url).post("/login/correo", {
      email: "portatil@example.com",
    });
    expect(stranger.text).not.toContain(link!);
    expect((await client.get(link!)).status).toBe(302);
  } finally {
    await dev.close();
  }
});

test("a production site without an OpenID provider signs in by e-mailed links only", async () => {
  const lines: string[] = [];
  const production = await startConfiguredServer(
    {
      NODE_ENV: "production",
      PUBLIC_URL: "https://ayllu.example",
      TRUST_PROXY: "1",
      // The server is handed the test database; DATABASE_URL only satisfies the production check.
      DATABASE_URL: "postgres://ayllu@db.invalid/ayllu",
      SMTP_URL: smtp.url,
    },
    { log: (line) => lines.push(line) },
  );
  // As the TLS proxy in front says it: the request's own URL is then the public origin.
  const https = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "ayllu.example:443" };
  const origin = "https://ayllu.example";
  try {
    const client = new BrowserClient(production.address);
    const login = await client.get("/login", https);
    expect(login.status).toBe(200);
    expect(plain(login.text)).toContain("Recibir un enlace por correo");
    expect(login.text).not.toContain("Iniciar Sesión con Google");
    expect((await client.post("/login", {}, { origin, headers: https })).status).toBe(404);
    const callback = await client.get("/auth/callback?code=x&state=y", https);
    expect(callback.status).toBe(302);
    expect(pathOf(callback.location)).toBe("/login?error=1");

    const count = smtp.received.length;
    const asked = await client.post(
      "/login/correo",
      { email: "sin-google@example.com" },
      { origin, headers: https },
    );
    expect(asked.status).toBe(200);
    expect(asked.headers.get("set-cookie")).toMatch(/^__Host-ayllu_link=.*; Secure/);
    const [mail] = (await smtp.waitFor(count + 1)).slice(count);
    const link = /https:\/\/ayllu\.example\/login\/enlace\/[A-Za-z0-9_-]{43}/.exec(mail!.text!)![0];
    const followed = await client.get(new URL(link).pathname, https);
    expect(followed.status).toBe(302);
    expect(pathOf(followed.location)).toBe("/aditionaldata");
    expect(followed.headers.get("set-cookie")).toContain("__Host-ayllu_session=");
  } finally {
    await production.close();
  }
});

test("a backup leaves pending links out: a restore never brings one back", async () => {
  await requestLink(new BrowserClient(server.url), "copia@example.com");
  expect(await server.db.$count(signInLinks)).toBeGreaterThan(0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-copia-enlaces-"));
  try {
    const file = path.join(dir, "copia.ayllu");
    const header = await writeBackup(server.db, file, server.database.kind);
    expect(header.tables.map((t) => t.name)).not.toContain("sign_in_links");
    expect(header.tables.map((t) => t.name)).toContain("users");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
