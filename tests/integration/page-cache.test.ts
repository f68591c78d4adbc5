// The anonymous page cache (docs/decisions/015-page-cache.md), spoken to over HTTP on the
// production build: what a visitor may be given from memory, what never enters it, and that a
// write, a raw SQL change or the end of an event is seen on the next request.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { and, eq, sql } from "drizzle-orm";
import express from "express";
import pg from "pg";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { createPageCache, markPersonal } from "#server/http/page-cache.server";
import type { AppLoadContext } from "react-router";
import { getUser } from "~/guards.server";
import { participations, users, type User } from "~/db/schema.server";
import { setCheckedIn } from "~/attendance/attendance.server";
import { formatCertificateCode } from "~/attendance/certificate.server";
import { BrowserClient } from "../helpers/browser-client";
import { postgresAdminUrl, testOnlyOn, usingPostgres } from "../helpers/database";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent, eventForm } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInMember } from "../helpers/sign-in";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { inLaPaz } from "../helpers/la-paz";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
// The server's clock runs this far ahead of the system's: a test moves it instead of waiting.
let clockOffsetMs = 0;
const serverNow = () => new Date(Date.now() + clockOffsetMs);

/** The next whole minute after `ms`: event times have minute precision. */
function nextWholeMinute(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000 + 60_000;
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" }, { now: serverNow });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

/** A visitor: no cookies, and the bytes as sent (fetch would undo the compression). */
function visit(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(path, server.url),
      { headers: { "Accept-Encoding": "identity", ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const body = Buffer.concat(chunks);
          const replyHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) replyHeaders.set(name, String(value));
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: replyHeaders,
            body,
            text: body.toString("utf8"),
          });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

const isCached = (reply: { headers: Headers }) =>
  (reply.headers.get("cache-control") ?? "").startsWith("public") &&
  reply.headers.get("etag") !== null;

/** The second visit of a page is answered from the cache (the first one fills it). */
async function cachedVisit(path: string, headers: Record<string, string> = {}) {
  await visit(path, headers);
  for (let attempt = 0; attempt < 50; attempt++) {
    const reply = await visit(path, headers);
    if (isCached(reply)) return reply;
    // The entry is stored once its compressed variants are ready, a moment after the first answer.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} no llegó a la caché`);
}

test("a visitor's second request of a public page comes from the cache, in identity, gzip and br, with the same bytes, for a proxy to keep", async () => {
  await createTestEvent(server.db, admin.user, { nombreEvento: `Cacheable ${randomUUID()}` });
  const first = await visit("/eventos");
  expect(first.status).toBe(200);
  expect(first.headers.get("cache-control")).toBe("no-store");

  const plain = await cachedVisit("/eventos");
  const withoutNonces = (text: string) => text.replace(/ nonce="[^"]*"/g, "");
  expect(withoutNonces(plain.text)).toBe(withoutNonces(first.text));
  expect(plain.headers.get("cache-control")).toMatch(
    /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/,
  );
  expect(plain.headers.get("vary")).toBe("Accept-Encoding, Cookie, Save-Data");
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(Number(plain.headers.get("content-length"))).toBe(plain.body.length);

  const gzipped = await visit("/eventos", { "Accept-Encoding": "gzip, deflate" });
  expect(gzipped.headers.get("content-encoding")).toBe("gzip");
  expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);

  const brotli = await visit("/eventos", { "Accept-Encoding": "gzip, deflate, br, zstd" });
  expect(brotli.headers.get("content-encoding")).toBe("br");
  expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
  expect(brotli.body.length).toBeLessThan(gzipped.body.length);
  expect(brotli.headers.get("etag")).toBe(plain.headers.get("etag"));

  // A cached answer is sent before Express: it carries every header of the render it was kept
  // from (the security headers among them), but for the ones of each response.
  expect(brotli.headers.get("x-content-type-options")).toBe("nosniff");
  expect(brotli.headers.get("x-frame-options")).toBe("DENY");
  const perResponse = new Set([
    ...["cache-control", "content-encoding", "content-length", "etag", "vary"],
    ...["content-security-policy", "date", "connection", "keep-alive", "transfer-encoding"],
  ]);
  const kept = (headers: Headers) =>
    [...headers].filter(([name]) => !perResponse.has(name)).sort(([a], [b]) => a.localeCompare(b));
  expect(kept(brotli.headers)).toEqual(kept(first.headers));
  expect(kept(first.headers).map(([name]) => name)).toEqual(
    expect.arrayContaining(["permissions-policy", "referrer-policy", "content-type"]),
  );

  // HEAD: the same headers, no body.
  const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request(new URL("/eventos", server.url), { method: "HEAD" }, resolve);
    request.on("error", reject).end();
  });
  head.resume();
  expect(head.statusCode).toBe(200);
  expect(head.headers.etag).toBe(plain.headers.get("etag"));
  expect(Number(head.headers["content-length"])).toBe(plain.body.length);
});

test("visitors who ask for a page while another visitor's render of it is under way get that render's page: after a change, a page is rendered once", async () => {
  await createTestEvent(server.db, admin.user, { nombreEvento: `Una vez ${randomUUID()}` });
  await server.settled();
  const browser = { "Accept-Encoding": "gzip, deflate, br, zstd" };
  const replies = await Promise.all(Array.from({ length: 12 }, () => visit("/eventos", browser)));
  expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));
  const rendered = replies.filter((reply) => !isCached(reply));
  expect(rendered).toHaveLength(1);
  const pages = replies.map((reply) =>
    brotliDecompressSync(reply.body)
      .toString("utf8")
      .replace(/ nonce="[^"]*"/g, ""),
  );
  expect(new Set(pages).size).toBe(1);
  expect(new Set(replies.filter(isCached).map((reply) => reply.headers.get("etag"))).size).toBe(1);
});

test("visitors waiting for a render that is not kept get their own answer", async () => {
  const missing = `/detalles/${randomUUID()}`;
  const notFound = await Promise.all(Array.from({ length: 6 }, () => visit(missing)));
  for (const reply of notFound) {
    expect(reply.status).toBe(404);
    expect(reply.text).toContain(MESSAGES.eventNotFound);
  }
});

/** A page cache on the test server's database in front of `page` (at /pagina), on its own port. */
async function cacheInFront(page: express.RequestHandler) {
  const cache = createPageCache(server.database);
  const app = express();
  app.use(cache.capture);
  app.get("/listo", (_req, res) => void res.type("text/plain").send("listo"));
  app.get("/pagina", page);
  const front = http.createServer((req, res) => {
    if (!cache.serve(req, res, app)) app(req, res);
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const get = (path: string) => visit(new URL(path, url).toString());
  // Once the cache hears the database, it keeps pages.
  for (let i = 0; i < 100 && cache.stats().entries === 0; i++) {
    await get("/listo");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(cache.stats().entries).toBe(1);
  return {
    get,
    async close() {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await cache.close();
    },
  };
}

test("a visitor waits for another visitor's render of the same page only so long, then renders it", async () => {
  // The first render never ends, as when its visitor stops reading a page sent in one piece.
  const unfinished: express.Response[] = [];
  const front = await cacheInFront((_req, res) => {
    if (unfinished.length === 0) {
      unfinished.push(res);
      res.type("html").write("<p>a medias");
    } else res.type("html").send("<p>entera</p>");
  });
  try {
    void front.get("/pagina").catch(() => {});
    while (unfinished.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const reply = await front.get("/pagina");
    expect(reply.status).toBe(200);
    expect(reply.text).toBe("<p>entera</p>");
  } finally {
    unfinished[0]?.end();
    await front.close();
  }
});

test("a render that read a session is never kept, even when its request had none of the site's cookies (issue 40)", async () => {
  const member = await createMember(server);
  const cookie = member.client.cookieHeader();
  let renders = 0;
  const front = await cacheInFront(async (req, res, next) => {
    try {
      renders++;
      // A bug's shape: the render reads a session the request did not bring (another request's).
      const context = {
        db: server.db,
        config: server.config,
        personal: () => markPersonal(res),
        now: () => new Date(),
        requestSeen: () => ({ host: server.url.hostname, protocol: "http", forwardedFor: null }),
      } as unknown as AppLoadContext;
      const user = await getUser(
        new Request(new URL(req.url, server.url), { headers: { cookie } }),
        context,
      );
      res.type("html").send(`<p>${user?.email ?? "nadie"}</p>`);
    } catch (error) {
      next(error);
    }
  });
  try {
    const first = await front.get("/pagina");
    expect(first.text).toBe(`<p>${member.user.email}</p>`);
    const second = await front.get("/pagina");
    expect(second.text).toBe(`<p>${member.user.email}</p>`);
    // Rendered again: not answered from the cache.
    expect(renders).toBe(2);
  } finally {
    await front.close();
  }
});

test("a render that read no session, beside it, is kept (the guard is not what keeps pages out)", async () => {
  let renders = 0;
  const front = await cacheInFront((_req, res) => {
    renders++;
    res.type("html").send("<p>para todos</p>");
  });
  try {
    await front.get("/pagina");
    expect((await front.get("/pagina")).text).toBe("<p>para todos</p>");
    expect(renders).toBe(1);
  } finally {
    await front.close();
  }
});

test("visitors of a page that is never kept (a redirect) do not wait for each other's render", async () => {
  let rendering = 0;
  let most = 0;
  const front = await cacheInFront(async (_req, res) => {
    rendering++;
    most = Math.max(most, rendering);
    // Until a second render is under way at the same time, or half a second.
    for (let i = 0; i < 50 && rendering < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    rendering--;
    res.redirect(302, "/otra");
  });
  try {
    expect((await front.get("/pagina")).status).toBe(302);
    const both = await Promise.all([front.get("/pagina"), front.get("/pagina")]);
    expect(both.map((reply) => reply.status)).toEqual([302, 302]);
    expect(most).toBe(2);
  } finally {
    await front.close();
  }
});

test("a cached page's Content-Security-Policy allows exactly its own inline scripts by hash, and no nonce", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Política ${randomUUID()}`,
  });
  for (const path of ["/", "/eventos", `/detalles/${event.id}`, "/notas"]) {
    const reply = await cachedVisit(path);
    const policy = reply.headers.get("content-security-policy")!;
    const scriptSrc = policy
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("script-src "))!
      .split(" ");
    expect(policy).not.toContain("nonce-");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const inline = [...reply.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      (m) => !/\ssrc=/.test(m[1]!),
    );
    expect(inline.length).toBeGreaterThan(0);
    const hashes = new Set(
      inline.map((m) => `'sha256-${createHash("sha256").update(m[2]!).digest("base64")}'`),
    );
    for (const hash of hashes) expect(scriptSrc).toContain(hash);
    expect(scriptSrc.filter((s) => s.startsWith("'sha256-"))).toHaveLength(hashes.size);
  }
});

test("If-None-Match with the page's ETag is answered 304 with no body; a stale ETag gets the page", async () => {
  const reply = await cachedVisit("/recursos");
  const etag = reply.headers.get("etag")!;
  const again = await visit("/recursos", { "If-None-Match": etag });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  expect(again.headers.get("etag")).toBe(etag);
  const stale = await visit("/recursos", { "If-None-Match": 'W/"otra-version"' });
  expect(stale.status).toBe(200);
  expect(stale.text).toBe(reply.text);
});

test("a visitor never receives a page rendered for a signed-in member, and a member never receives the visitor's page", async () => {
  const name = `Miembro Privado ${randomUUID().slice(0, 8)}`;
  const member = await createMember(server, `privado-${randomUUID()}@example.com`, name);
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Privacidad ${randomUUID()}`,
  });
  const path = `/detalles/${event.id}`;

  // The member first, twice: their pages carry their name and are never kept.
  for (let i = 0; i < 2; i++) {
    const page = await member.client.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(name);
    expect(page.text).toContain("Participar");
    expect(page.headers.get("cache-control")).toBe("no-store");
  }
  const visitor = await cachedVisit(path);
  expect(visitor.text).not.toContain(name);
  expect(visitor.text).toContain("Inicia Sesión para Participar");

  // With the visitor's page in the cache, the member still gets their own.
  const afterwards = await member.client.get(path);
  expect(afterwards.text).toContain(name);
  expect(afterwards.text).not.toContain("Inicia Sesión para Participar");
  expect(afterwards.headers.get("cache-control")).toBe("no-store");
  expect(afterwards.headers.get("etag")).toBeNull();
});

test("a flash message is shown to its visitor only and never kept for the next one", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Mensaje ${randomUUID()}`,
  });
  const path = `/detalles/${event.id}`;
  await cachedVisit("/login");
  // A visitor pressing 'Participar' is sent to sign in with a message in a cookie.
  const visitor = new BrowserClient(server.url);
  const [, login] = await visitor.follow(await visitor.post(path, { intent: "join" }));
  expect(login!.text).toContain(MESSAGES.participationLoginRequired);
  expect(login!.headers.get("etag")).toBeNull();
  const next = await visit(login!.url.replace(server.url.origin, ""));
  expect(next.text).not.toContain(MESSAGES.participationLoginRequired);
  const plain = await visit("/login");
  expect(plain.text).not.toContain(MESSAGES.participationLoginRequired);
});

test("an event an admin publishes is on the visitor's next request of every list that shows it", async () => {
  await cachedVisit("/eventos");
  await cachedVisit("/");
  const nombreEvento = `Recién publicado ${randomUUID().slice(0, 8)}`;
  // The soonest upcoming event, so that it is on the first page of each list.
  const published = await admin.client.post(
    "/admin",
    eventForm("publish", { nombreEvento, fechaEvento: "2029-01-01" }),
  );
  expect(published.status).toBe(302);
  expect((await visit("/eventos")).text).toContain(nombreEvento);
  expect((await visit("/")).text).toContain(nombreEvento);
});

test("a member joining or joining the waiting list of an event is on the visitor's next request of its page", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-11-11",
    capacity: "1",
  });
  const page = `/detalles/${event.id}`;
  expect((await cachedVisit(page)).text).toContain("Queda 1 plaza");
  // Through the model, not a POST to this server: only the database's NOTIFY can clear the page.
  const [first, second] = await Promise.all([createMember(server), createMember(server)]);
  await cachedVisit(page);
  await joinEvent(server.db, first.user, event.id);
  // The NOTIFY reaches the server before the write returns on the embedded database, a moment
  // after the commit on PostgreSQL (see the raw SQL test below).
  expect(await seenWithin(page, "Cupo completo", usingPostgres ? 10_000 : 0)).toBe(true);
  await joinEvent(server.db, second.user, event.id);
  expect(isCached(await cachedVisit(page))).toBe(true);
  await leaveEvent(server.db, first.user, event.id);
  // The seat went to the one waiting: still full, but the page is rendered again, not kept.
  const after = await visitUntil(page, (reply) => !isCached(reply), usingPostgres ? 10_000 : 0);
  expect(after.text).toContain("Cupo completo");
  expect(isCached(after)).toBe(false);
});

test("a change written straight into the database (as npm run import and restore do) reaches the next request", async () => {
  const note = await admin.client.post("/projectsandnotes", {
    intent: "createNote",
    titulo: `Nota original ${randomUUID().slice(0, 8)}`,
    texto: "Texto",
    enlaceImagen: "",
    enlacesAdicionales: [""],
  });
  expect(note.status).toBe(302);
  const before = await cachedVisit("/notas");
  const renamed = `Nota cambiada por SQL ${randomUUID().slice(0, 8)}`;
  await server.db.execute(sql`update notes set titulo = ${renamed}`);
  expect(before.text).not.toContain(renamed);
  // The trigger's NOTIFY reaches the server before the write returns on the embedded database (the
  // next request shows it), and a moment after the commit on PostgreSQL, where the server listens
  // on a connection of its own: until then the cached page may still be answered.
  expect(await seenWithin("/notas", renamed, usingPostgres ? 10_000 : 0)).toBe(true);
});

test("a certificate's public page is kept for visitors; the member's new name, or their check-in undone, is on the next request", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2024-05-05" });
  const { user } = await createMember(server, `cert-${randomUUID()}@example.com`, "Eva Antes");
  await joinEvent(server.db, user, event.id, new Date("2024-01-01T00:00:00Z"));
  await setCheckedIn(server.db, admin.user, event.id, user.id, true);
  const [row] = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, user.id)));
  const page = `/certificados/${formatCertificateCode(row!.code)}`;
  expect((await cachedVisit(page)).text).toContain("Eva Antes");
  // Names live on users, whose other writes (signing in, sessions) leave public pages alone: only
  // a changed name clears them (drizzle/0005_certificates.sql).
  await server.db.update(users).set({ nombreCompleto: "Eva Después" }).where(eq(users.id, user.id));
  expect(await seenWithin(page, "Eva Después", usingPostgres ? 10_000 : 0)).toBe(true);
  expect(isCached(await cachedVisit(page))).toBe(true);
  await setCheckedIn(server.db, admin.user, event.id, user.id, false);
  const after = await visitUntil(page, (reply) => reply.status === 404, usingPostgres ? 10_000 : 0);
  expect(after.status).toBe(404);
  expect(after.text).toContain(MESSAGES.certificateNotFound);
});

/** Visits `path` until `accept` holds for the answer, for at most `ms` (once when `ms` is 0). */
async function visitUntil(
  path: string,
  accept: (reply: Awaited<ReturnType<typeof visit>>) => boolean,
  ms: number,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const reply = await visit(path);
    if (accept(reply) || Date.now() >= deadline) return reply;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Visits `path` until its page contains `text`, for at most `ms` (once when `ms` is 0). */
async function seenWithin(path: string, text: string, ms: number): Promise<boolean> {
  return (await visitUntil(path, (reply) => reply.text.includes(text), ms)).text.includes(text);
}

test("an event page reads 'En curso' on the visitor's first request after the start, and 'Evento Finalizado' on the first after the end, cached or not", async () => {
  const startsAt = new Date(nextWholeMinute(serverNow().getTime()));
  const endsAt = new Date(startsAt.getTime() + 60_000);
  const start = inLaPaz(startsAt);
  const end = inLaPaz(endsAt);
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Empieza ya ${randomUUID()}`,
    fechaEvento: start.fecha,
    horaEvento: start.hora,
    fechaFin: end.fecha,
    horaFin: end.hora,
  });
  const path = `/detalles/${event.id}`;
  try {
    // Shortly before the start, the cached page still invites to sign in. (Ten seconds: its
    // first render, compression and the retries until it is cached took over one second on a
    // slow CI machine, and the server's clock runs on meanwhile.)
    clockOffsetMs = startsAt.getTime() - 10_000 - Date.now();
    const before = await cachedVisit(path);
    expect(before.text).toContain("Inicia Sesión para Participar");
    expect(before.text).not.toContain("En curso");
    expect(before.text).not.toContain("Evento Finalizado");

    // In progress: the cached page of before the start is not served; this one is kept in turn.
    clockOffsetMs = startsAt.getTime() + 50 - Date.now();
    const during = await visit(path);
    expect(during.text).toContain("En curso");
    expect(during.text).toContain("Inicia Sesión para Participar");
    expect(during.text).not.toContain("Evento Finalizado");
    clockOffsetMs = endsAt.getTime() - 10_000 - Date.now();
    const cachedDuring = await cachedVisit(path);
    expect(cachedDuring.text).toContain("En curso");

    clockOffsetMs = endsAt.getTime() + 50 - Date.now();
    const after = await visit(path);
    expect(after.text).toContain("Evento Finalizado");
    expect(after.text).not.toContain("En curso");
  } finally {
    clockOffsetMs = 0;
  }
});

// ——— Across processes on one PostgreSQL ———

const postgresUrl = postgresAdminUrl;
const children: ChildProcess[] = [];
const dropAfter: string[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    }),
  );
  for (const name of dropAfter.splice(0)) {
    const client = new pg.Client({ connectionString: postgresUrl! });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
});

async function startProcess(env: Record<string, string>): Promise<URL> {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      WEB_CONCURRENCY: "1",
      ADMIN_EMAILS: "jefa@example.com",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No arrancó:\n${output}`)), 45_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Ayllu escucha en (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => reject(new Error(`Terminó (${code}):\n${output}`)));
  });
}

testOnlyOn("postgres", "two server processes need a database they can share")(
  "on PostgreSQL, a note published through one server process is on the next visitor request to another that had the list cached",
  { timeout: 120_000 },
  async () => {
    const name = `ayllu_cache_${randomBytes(6).toString("hex")}`;
    const adminClient = new pg.Client({ connectionString: postgresUrl! });
    await adminClient.connect();
    await adminClient.query(`create database ${name}`);
    await adminClient.end();
    dropAfter.push(name);
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    // One after the other: the first applies the migrations.
    const a = await startProcess({ DATABASE_URL: url.toString() });
    const b = await startProcess({ DATABASE_URL: url.toString() });
    const adminA = await signInMember(a, "jefa@example.com", "Jefa Admin");

    const visitB = async () => {
      const response = await fetch(new URL("/notas", b));
      return { cached: response.headers.get("etag") !== null, text: await response.text() };
    };
    let cached = false;
    for (let i = 0; i < 50 && !cached; i++) cached = (await visitB()).cached;
    expect(cached).toBe(true);

    const titulo = `Desde otro proceso ${randomUUID().slice(0, 8)}`;
    const posted = await adminA.post("/projectsandnotes", {
      intent: "createNote",
      titulo,
      texto: "Texto",
      enlaceImagen: "",
      enlacesAdicionales: [""],
    });
    expect(posted.status).toBe(302);
    // The NOTIFY travels from A's commit to B's listening connection, a moment later; the
    // bound only keeps a lost notification from waiting out the cached page's minute.
    const deadline = Date.now() + 10_000;
    let seen = false;
    while (!seen && Date.now() < deadline) seen = (await visitB()).text.includes(titulo);
    expect(seen).toBe(true);
  },
);
