// Mail through the site: a join posted to the site arrives at a real SMTP server; the unsubscribe
// link asks on GET and unsubscribes on a one-click POST without signing in; members choose on
// /profile; admins write to an event's participants (and nobody else may); the development
// mailbox exists only without SMTP and outside production.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { asc, eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { loadConfig } from "~/kernel/config.server";
import { openPostgres } from "~/db/client.server";
import { mailOutbox, participations, users, type User } from "~/db/schema.server";
import { queueParticipantsMessage } from "~/mail/mail.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { joinEvent } from "~/events/participation.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { alertsIn, createAdmin, createMember, createTestEvent, landOn } from "../helpers/events";
import { dropDatabase, postgresAdminUrl, testOnlyOn } from "../helpers/database";
import { startConfiguredServer } from "../helpers/configured-server";
import { startTestServer, type TestServer } from "../helpers/server";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

let server: TestServer;
let smtp: TestSmtp;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startTestServer({
    ADMIN_EMAILS: "jefa@example.com",
    SMTP_URL: smtp.url,
    MAIL_FROM: "Ayllu <eventos@ayllu.example>",
  });
  admin = await createAdmin(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.mode = "accept";
});

failOnConsoleError();

/** A page's HTML without the comments React puts between pieces of text. */
function plain(html: string): string {
  return html.replaceAll("<!-- -->", "");
}

async function userRow(id: string) {
  const [row] = await server.db.select().from(users).where(eq(users.id, id));
  return row!;
}

async function mailsOf(kind: string) {
  return server.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, kind))
    .orderBy(asc(mailOutbox.createdAt));
}

test("a join posted to the site arrives at the SMTP server, sent by the server's own worker", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Feria de robots" });
  const member = await createMember(server, "participa@example.com", "Rosa Mamani");
  const reply = await member.client.post(`/detalles/${event.id}`, { intent: "join" });
  expect(reply.status).toBe(302);
  const arrived = async () => {
    for (;;) {
      const mail = smtp.received.find(
        (m) => m.subject === "Inscripción confirmada: Feria de robots",
      );
      if (mail) return mail;
      await smtp.waitFor(smtp.received.length + 1);
    }
  };
  const mail = await arrived();
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe(
    '"Rosa Mamani" <participa@example.com>',
  );
  expect(mail.from?.text).toBe('"Ayllu" <eventos@ayllu.example>');
  expect(mail.text).toContain(
    `${server.url.origin}/correo/baja/${member.user.mailToken}/participacion`,
  );
  expect(mail.attachments[0]!.filename).toBe("evento.ics");
});

test("the unsubscribe link: a GET only asks; a one-click POST without a session, from anywhere, turns the topic off", async () => {
  const member = await createMember(server);
  const link = `/correo/baja/${member.user.mailToken}/recordatorios`;
  const visitor = new BrowserClient(server.url);

  const page = await visitor.get(link);
  expect(page.status).toBe(200);
  expect(plain(page.text)).toContain(
    "¿Quieres dejar de recibir <strong>recordatorios antes de cada evento</strong>?",
  );
  expect(page.headers.get("cache-control")).toBe("private, no-store");
  expect((await userRow(member.user.id)).mailOff).toEqual([]);

  // RFC 8058: the mail program posts this body to the link, with no cookie and no Origin of ours.
  const body = "List-Unsubscribe=One-Click";
  const headers = { "Content-Type": "application/x-www-form-urlencoded" };
  const done = await visitor.request("POST", link, { body, headers, origin: null });
  expect(done.status).toBe(200);
  expect(plain(done.text)).toContain("Ya no te enviaremos recordatorios antes de cada evento.");
  // A web mail program posting from its own page: another site's Origin.
  const fromWebmail = await visitor.request("POST", link, {
    body,
    headers,
    origin: "https://mail.example",
  });
  expect(fromWebmail.status).toBe(200);
  expect(fromWebmail.text).toBe("Te diste de baja.");
  const unknownFromWebmail = await visitor.request(
    "POST",
    `/correo/baja/${"b".repeat(64)}/plazas`,
    {
      body,
      headers,
      origin: "https://mail.example",
    },
  );
  expect(unknownFromWebmail.status).toBe(404);
  expect((await userRow(member.user.id)).mailOff).toEqual(["recordatorios"]);

  // The welcome mail's link turns everything off.
  const all = await visitor.request("POST", `/correo/baja/${member.user.mailToken}/todos`, {
    body,
    headers,
  });
  expect(all.status).toBe(200);
  expect((await userRow(member.user.id)).mailOff).toEqual([
    "cambios",
    "mensajes",
    "participacion",
    "plazas",
    "recordatorios",
  ]);
});

test("unsubscribe links the site did not make are a 404 with a Spanish message, and change nothing", async () => {
  const member = await createMember(server);
  const visitor = new BrowserClient(server.url);
  const unknown = "a".repeat(64);
  for (const link of [
    `/correo/baja/${unknown}/recordatorios`,
    `/correo/baja/${member.user.mailToken}/otra-cosa`,
    `/correo/baja/${member.user.mailToken.slice(1)}/recordatorios`,
    `/correo/baja/${member.user.mailToken.toUpperCase()}/recordatorios`,
    "/correo/baja/%27%20or%201=1--/recordatorios",
  ]) {
    const page = await visitor.get(link);
    expect(page.status, link).toBe(404);
    expect(page.text, link).toContain(MESSAGES.unsubscribeInvalid);
    const post = await visitor.post(link, { "List-Unsubscribe": "One-Click" });
    expect(post.status, link).toBe(404);
  }
  const notAForm = await visitor.request("POST", `/correo/baja/${member.user.mailToken}/plazas`, {
    body: "{}",
    headers: { "Content-Type": "application/json" },
  });
  expect(notAForm.status).toBe(400);
  expect((await userRow(member.user.id)).mailOff).toEqual([]);
});

test("on /profile a member turns each kind of mail off and on; visitors go to /login; bad values change nothing", async () => {
  const member = await createMember(server);
  const profile = await member.client.get("/profile");
  expect(plain(profile.text)).toContain("Correos");
  expect(plain(profile.text).replace(/<\/?(span|wbr)[^>]*>/g, "")).toContain(member.user.email);
  expect(profile.text.match(/name="activos"[^>]*checked/g)).toHaveLength(5);

  const saved = await member.client.post("/profile", {
    intent: "mailPreferences",
    activos: ["plazas", "mensajes"],
  });
  expect(saved.status).toBe(302);
  expect((await userRow(member.user.id)).mailOff).toEqual([
    "participacion",
    "recordatorios",
    "cambios",
  ]);
  const after = await member.client.get("/profile");
  expect(after.text).toContain(MESSAGES.mailPreferencesSaved);
  expect(after.text.match(/name="activos"[^>]*checked/g)).toHaveLength(2);

  // What the member downloads about themselves says so, and lists their mails.
  const exported = JSON.parse((await member.client.get("/profile/datos")).text);
  expect(exported.correo.desactivados).toEqual(["participacion", "recordatorios", "cambios"]);
  expect(exported.correo.correos.map((m: { tipo: string }) => m.tipo)).toContain("welcome");

  // Nothing checked: every kind off.
  await member.client.post("/profile", { intent: "mailPreferences" });
  expect((await userRow(member.user.id)).mailOff).toHaveLength(5);

  for (const bad of [["otra"], ["plazas", "plazas", "plazas", "plazas", "plazas", "plazas"]]) {
    const refused = await member.client.post("/profile", {
      intent: "mailPreferences",
      activos: bad,
    });
    expect(refused.status).toBe(400);
    expect(alertsIn(refused.text), bad.join()).toContain("Elige tipos de correo de la lista.");
  }
  const extra = await member.client.post("/profile", {
    intent: "mailPreferences",
    activos: "plazas",
    isAdmin: "true",
  });
  expect(extra.status).toBe(400);
  expect((await userRow(member.user.id)).mailOff).toHaveLength(5);

  const visitor = new BrowserClient(server.url);
  const away = await visitor.post("/profile", { intent: "mailPreferences", activos: "plazas" });
  expect(away.status).toBe(302);
  expect(pathOf(away.location)).toBe("/login?redirectTo=%2Fprofile");
});

test("an admin writes to an event's participants (and, if asked, those waiting): queued, with the count shown", async () => {
  const event = await createTestEvent(server.db, admin.user, { capacity: "2" });
  const [a, b, c, d] = [
    await createMember(server),
    await createMember(server),
    await createMember(server),
    await createMember(server),
  ];
  for (const m of [a, b, c]) await joinEvent(server.db, m.user, event.id);
  await d.client.post("/profile", { intent: "mailPreferences", activos: "plazas" });
  await joinEvent(server.db, d.user, event.id);
  const page = `/admin/eventos/${event.id}/participantes`;
  const form = await admin.client.get(page);
  expect(plain(form.text)).toContain("Enviar mensaje a los participantes");
  expect(plain(form.text)).toContain("También a quienes esperan una plaza (2)");

  const sent = await admin.client.post(page, {
    intent: "sendMessage",
    asunto: "Cambio de aula",
    mensaje: "Nos vemos en el aula 3.",
  });
  expect(sent.status).toBe(302);
  expect(pathOf(sent.location)).toBe(`${page}?enviado=2&sinCorreo=0`);
  const shown = await admin.client.get(sent.location!);
  expect(plain(shown.text)).toContain("Mensaje en cola para 2 personas.");
  expect((await mailsOf("message")).map((r) => r.userId).sort()).toEqual(
    [a.user.id, b.user.id].sort(),
  );

  const withWaiting = await admin.client.post(page, {
    intent: "sendMessage",
    asunto: "Lista de espera",
    mensaje: "Quizá se libere una plaza.",
    incluirEspera: "1",
  });
  expect(pathOf(withWaiting.location)).toBe(`${page}?enviado=3&sinCorreo=1`);
  const again = await admin.client.get(withWaiting.location!);
  expect(plain(again.text)).toContain(
    "Mensaje en cola para 3 personas. 1 persona desactivó los mensajes de los organizadores y no lo recibirá.",
  );
  expect(await mailsOf("message")).toHaveLength(5);
});

test("sending a message refuses members and visitors, bad input and unknown events, and queues nothing", async () => {
  const event = await createTestEvent(server.db, admin.user);
  const member = await createMember(server);
  await joinEvent(server.db, member.user, event.id);
  const page = `/admin/eventos/${event.id}/participantes`;
  const queued = () =>
    server.db.select({ id: mailOutbox.id }).from(mailOutbox).orderBy(asc(mailOutbox.id));
  const before = await queued();
  const good = { intent: "sendMessage", asunto: "Hola", mensaje: "Texto" };

  const refused = await member.client.post(page, good);
  expect(refused.status).toBe(403);
  expect(refused.text).toContain(MESSAGES.accessDenied);
  const visitor = await new BrowserClient(server.url).post(page, good);
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toMatch(/^\/login\?redirectTo=/);

  const cases: [Record<string, string>, string, string][] = [
    [{ ...good, asunto: "" }, "asunto", "Escribe el asunto del mensaje."],
    [{ ...good, asunto: "   " }, "asunto", "Escribe el asunto del mensaje."],
    [{ ...good, asunto: "a".repeat(151) }, "asunto", "Máximo 150 caracteres."],
    [
      { ...good, asunto: "Hola\r\nBcc: todos@example.com" },
      "asunto",
      "El asunto debe ser una sola línea.",
    ],
    [{ ...good, mensaje: "" }, "mensaje", "Escribe el mensaje."],
    [{ ...good, mensaje: "x".repeat(5001) }, "mensaje", "Máximo 5000 caracteres."],
    [{ ...good, incluirEspera: "sí" }, "incluirEspera", "Esta opción tiene un valor no válido."],
  ];
  for (const [fields, field, message] of cases) {
    const reply = await admin.client.post(page, fields);
    expect(reply.status, field).toBe(400);
    expect(reply.text, field).toContain(message);
    if (field !== "incluirEspera") expect(reply.text, field).toContain('aria-invalid="true"');
  }
  const unknownField = await admin.client.post(page, { ...good, para: "todos" });
  expect(unknownField.status).toBe(400);
  for (const id of ["00000000-0000-4000-8000-000000000000", "no-es-un-id"]) {
    const reply = await admin.client.post(`/admin/eventos/${id}/participantes`, good);
    expect(reply.status, id).toBe(404);
  }
  expect(await queued()).toEqual(before);
});

test("the development mailbox shows admins what would have been sent; with SMTP or in production it does not exist", async () => {
  expect((await admin.client.get("/__dev/correo")).status).toBe(404);
  expect(loadConfig({ NODE_ENV: "production", ...PRODUCTION }).mail.transport).toEqual({
    kind: "none",
  });
  expect(loadConfig({ NODE_ENV: "development" }).mail.transport).toEqual({ kind: "mailbox" });

  const dev = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  try {
    const event = await createTestEvent(dev.db, (await createAdmin(dev)).user, {
      nombreEvento: "Club de robótica",
    });
    const member = await createMember(dev, "buzon@example.com", "Luz Condori");
    await joinEvent(dev.db, member.user, event.id);
    const [row] = await dev.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "joined"));
    // Every member's mail, address and unsubscribe token: a visitor signs in first, a member
    // who is not an admin is refused as /admin refuses them.
    const visitor = new BrowserClient(dev.url);
    for (const path of [
      "/__dev/correo",
      `/__dev/correo/${row!.id}?formato=eml`,
      `/__dev/correo/${row!.id}?formato=html`,
    ]) {
      const asked = await visitor.get(path);
      expect(asked.status, path).toBe(302);
      expect(pathOf(asked.location), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      const refused = await member.client.get(path);
      expect(refused.status, path).toBe(302);
      expect(pathOf(refused.location), path).toBe("/inicio");
      expect(alertsIn((await landOn(member.client, refused)).text), path).toEqual([
        MESSAGES.accessDenied,
      ]);
    }
    const reader = (await createAdmin(dev)).client;
    let box = await reader.get("/__dev/correo");
    // The server's worker keeps it a moment after the join.
    for (
      let i = 0;
      i < 200 && !/Inscripción confirmada[\s\S]{0,400}?Guardado/.test(box.text);
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      box = await reader.get("/__dev/correo");
    }
    expect(box.status).toBe(200);
    expect(box.headers.get("cache-control")).toBe("private, no-store");
    expect(plain(box.text)).toContain("Inscripción confirmada: Club de robótica");
    expect(plain(box.text)).toContain("Para buzon@example.com");
    const eml = await reader.get(`/__dev/correo/${row!.id}?formato=eml`);
    expect(eml.headers.get("content-type")).toBe("message/rfc822");
    expect(eml.text).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(eml.text).toMatch(
      /Content-Type: text\/calendar; charset=utf-8; method=PUBLISH;\s+name=evento\.ics/,
    );
    const html = await reader.get(`/__dev/correo/${row!.id}?formato=html`);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(html.text).toContain("Club de robótica");
    // The preview shows the logo from the site itself, and still nothing from anywhere else.
    // (The site's own policy is sent too; a browser applies both, so the stricter one rules.)
    const policies = (html.headers.get("content-security-policy") ?? "").split(/,\s*/);
    const preview = policies.find((policy) => !policy.includes("script-src"));
    expect(preview).toContain("default-src 'none'");
    expect(preview).toContain("img-src 'self'");
    expect(preview).not.toContain("https:");
    expect(html.text).toContain('/icons/logo-96.png"');
    for (const id of ["00000000-0000-4000-8000-000000000000", "nada"])
      expect((await reader.get(`/__dev/correo/${id}?formato=eml`)).status).toBe(404);
  } finally {
    await dev.close();
  }
});

const PRODUCTION = {
  DATABASE_URL: "postgres://ayllu@db:5432/ayllu",
  SESSION_SECRET: "s".repeat(40),
  PUBLIC_URL: "https://ayllu.example",
  TRUST_PROXY: "1",
  GOOGLE_CLIENT_ID: "id",
  GOOGLE_CLIENT_SECRET: "secreto",
};

test("production without SMTP starts with a clear warning that no mail will be sent, and has no mailbox", async () => {
  const lines: string[] = [];
  const production = await startConfiguredServer(
    {
      NODE_ENV: "production",
      PUBLIC_URL: "https://ayllu.example",
      TRUST_PROXY: "1",
      // The server is handed the test database; DATABASE_URL only satisfies the production check.
      DATABASE_URL: "postgres://ayllu@db.invalid/ayllu",
      OIDC_ISSUER: "https://login.ayllu.example",
      OIDC_CLIENT_ID: "ayllu",
      OIDC_CLIENT_SECRET: "secreto-del-cliente",
    },
    { log: (line) => lines.push(line) },
  );
  try {
    expect(lines.join("\n")).toContain(
      "AVISO: SMTP_URL no está configurada: no se enviará ningún correo",
    );
    const reply = await new BrowserClient(production.address).get("/__dev/correo", {
      "X-Forwarded-Proto": "https",
    });
    expect(reply.status).toBe(404);
  } finally {
    await production.close();
  }
});

const postgresUrl = postgresAdminUrl;

testOnlyOn("postgres", "a cluster of workers needs a database they can share")(
  "in a cluster of server processes on PostgreSQL (WEB_CONCURRENCY=2), every mail is sent once; each worker has two malloc arenas",
  async () => {
    const name = `ayllu_correo_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: postgresUrl! });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    const child = spawn(process.execPath, ["server.js"], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: os.tmpdir(),
        PORT: "0",
        HOST: "127.0.0.1",
        SEED_DEMO: "0",
        DATABASE_URL: url.toString(),
        WEB_CONCURRENCY: "2",
        SMTP_URL: smtp.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so that the primary and its workers can all be stopped at the end.
      detached: true,
    });
    // What the processes print, kept for the message of any failure (CI once saw this test hang
    // past its 120 s with nothing to say why).
    let output = "";
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const database = await (async () => {
      await new Promise<void>((resolve, reject) => {
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if ((output.match(/Ayllu escucha en/g) ?? []).length === 2) resolve();
        };
        child.stdout!.on("data", read);
        child.stderr!.on("data", read);
        child.once("exit", (code) => reject(new Error(`Terminó (${code}):\n${output}`)));
        setTimeout(() => reject(new Error(`No arrancó en 60 s:\n${output}`)), 60_000).unref();
      });
      return openPostgres(url.toString(), { max: 2 });
    })().catch(async (error: unknown) => {
      await stop();
      throw error;
    });
    /** SIGTERM, and SIGKILL to the whole group if it has not ended within 15 s. */
    async function stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const ended = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref()),
      ]);
      if (!ended) {
        // Not what this test checks (the deploy test stops the site with SIGTERM and times it),
        // but said, with what the processes printed, for whoever reads the log.
        console.warn(`El clúster no terminó en 15 s tras SIGTERM:\n${output}`);
        process.kill(-child.pid!, "SIGKILL");
        await exited;
      }
    }
    try {
      // glibc's arenas, one per thread in use, held 50-100 MB of freed memory (decision 024).
      if (process.platform === "linux") {
        const workers = fs
          .readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8")
          .trim()
          .split(" ");
        expect(workers).toHaveLength(2);
        for (const pid of workers) {
          const environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
          expect(environ).toContain("MALLOC_ARENA_MAX=2");
        }
      }
      const [jefa] = await database.db
        .insert(users)
        .values({
          issuer: "https://test.invalid",
          subject: randomUUID(),
          email: "j@example.com",
          isAdmin: true,
        })
        .returning();
      const event = await createTestEvent(database.db, jefa!);
      const members = await database.db
        .insert(users)
        .values(
          Array.from({ length: 40 }, (_, i) => ({
            issuer: "https://test.invalid",
            subject: randomUUID(),
            email: `cluster-${i}@example.com`,
          })),
        )
        .returning();
      await database.db
        .insert(participations)
        .values(members.map((m) => ({ userId: m.id, eventId: event.id })));
      const before = smtp.received.length;
      await queueParticipantsMessage(database.db, jefa!, event.id, {
        asunto: "Para el grupo",
        mensaje: "Un mensaje para cuarenta personas.",
        incluirEspera: false,
      });
      const received = (await smtp.waitFor(before + 40)).slice(before);
      // The last ones are marked sent a moment after the SMTP server accepted them.
      let rows = await database.db.select().from(mailOutbox);
      for (let i = 0; i < 200 && rows.some((r) => r.status !== "sent"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        rows = await database.db.select().from(mailOutbox);
      }
      expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
      expect(new Set(received.map((m) => m.messageId)).size).toBe(40);
      expect(smtp.received.length - before).toBe(40);
    } catch (error) {
      throw new Error(
        `${(error as Error).message}\n— lo que imprimieron los procesos:\n${output}`,
        {
          cause: error,
        },
      );
    } finally {
      await database.close();
      try {
        await stop();
      } finally {
        await dropDatabase(postgresUrl!, name);
      }
    }
  },
);
