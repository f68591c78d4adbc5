// The admin's way back in (decision 074): `admin-link EMAIL` prints a one-time link on the
// server's console. Here the site's PUBLIC_URL is wrong (https://sitio-equivocado.example) while
// it is reached at http://127.0.0.1:PORT, as after a typo in .env: the ordinary sign-in there is
// refused as another site's form, but the console link signs the admin in at that very address,
// leads to Diagnóstico (which names the fix), works once and for 15 minutes, only for an admin,
// and is written to the audit log.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { auditLog, sessions, users } from "~/db/schema.server";
import { EMAIL_ISSUER } from "~/members/account-link.server";
import { CONSOLE_LINK_MESSAGES } from "~/members/messages";
import { adminLinkCommand } from "#server/admin/admin-link.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { startTestServer, TEST_ENV, type TestServer } from "../helpers/server";

const WRONG = "https://sitio-equivocado.example";
const ENV = { PUBLIC_URL: WRONG, TRUST_PROXY: "1", ADMIN_EMAILS: "jefa@example.com" };

let server: TestServer;
let reached: URL;
let clock = Date.now();

beforeAll(async () => {
  server = await startTestServer(ENV, { now: () => new Date(clock) });
  reached = new URL(`http://127.0.0.1:${server.config.port}`);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  clock = Date.now();
});

failOnConsoleError();

const plain = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'");

/** Runs the command as the console would; returns its exit code and what it printed. */
function command(args: string[], env: Record<string, string> = { ...TEST_ENV, ...ENV }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = adminLinkCommand(
    args,
    env,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    new Date(clock),
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The path of the link the command printed for `email`. */
function linkFor(email: string): string {
  const printed = command([email]);
  expect(printed.code, printed.err).toBe(0);
  const url = /https:\/\/sitio-equivocado\.example(\/login\/consola\/\S+)/.exec(printed.out);
  expect(url, printed.out).not.toBeNull();
  return url![1]!;
}

test("at the wrong address, the ordinary sign-in is refused as another site's form", async () => {
  const client = new BrowserClient(reached);
  const reply = await client.post("/login/correo", { email: "jefa@example.com" });
  expect(reply.status).toBe(403);
});

test("the console link signs the admin in where it is opened and leads to Diagnóstico, which names the fix", async () => {
  const path = linkFor(" Jefa@Example.com ");
  const client = new BrowserClient(reached);

  // The GET only asks (a chat's preview uses nothing up).
  for (let i = 0; i < 2; i++) {
    const page = await client.get(path);
    expect(page.status).toBe(200);
    expect(plain(page.text)).toContain("Entrar como administrador");
    expect(plain(page.text)).toContain("jefa@example.com");
    expect(page.headers.get("cache-control")).toContain("no-store");
  }
  expect(await server.db.select().from(sessions)).toHaveLength(0);

  const signedIn = await client.post(path, {});
  expect(signedIn.status, signedIn.text.slice(0, 300)).toBe(302);
  expect(new URL(signedIn.location!, reached).href).toBe(`${reached.origin}/admin/diagnostico`);
  // Over plain http at another address: a cookie a browser keeps there (no Secure, no __Host-).
  const cookie = signedIn.headers.getSetCookie().find((c) => c.includes("ayllu_session="));
  expect(cookie).toMatch(/^ayllu_session=/);
  expect(cookie).not.toContain("Secure");

  const diagnostics = await client.get("/admin/diagnostico");
  expect(diagnostics.status).toBe(200);
  expect(plain(diagnostics.text)).toContain(`PUBLIC_URL=${reached.origin}`);

  const [admin] = await server.db.select().from(users).where(eq(users.email, "jefa@example.com"));
  expect(admin?.isAdmin).toBe(true);
  const entries = await server.db.select().from(auditLog).where(eq(auditLog.itemId, admin!.id));
  expect(entries.map((e) => e.action)).toContain("admin.consoleLink");
  expect(entries.find((e) => e.action === "admin.consoleLink")?.summary).toContain(
    `abierto en ${reached.origin}`,
  );

  // Once only, in this browser or any other.
  const again = await new BrowserClient(reached).post(path, {});
  expect(again.status).toBe(400);
  expect(plain(again.text)).toContain(CONSOLE_LINK_MESSAGES.invalid);
  const sessionsNow = await server.db.select().from(sessions);
  expect(sessionsNow).toHaveLength(1);
});

test("at the site's own address behind its proxy the session cookie stays Secure and __Host-", async () => {
  const path = linkFor("jefa@example.com");
  const client = new BrowserClient(reached);
  const reply = await client.request("POST", path, {
    body: new URLSearchParams(),
    origin: WRONG,
    headers: {
      "X-Forwarded-For": "203.0.113.9",
      "X-Forwarded-Proto": "https",
      "X-Forwarded-Host": "sitio-equivocado.example",
    },
  });
  expect(reply.status, reply.text.slice(0, 300)).toBe(302);
  const cookie = reply.headers.getSetCookie().find((c) => c.includes("ayllu_session="));
  expect(cookie).toMatch(/^__Host-ayllu_session=.*; Secure/);
});

test("a member who is not an admin gets nothing, and no account is made for an unknown address", async () => {
  const [member] = await server.db
    .insert(users)
    .values({
      issuer: EMAIL_ISSUER,
      subject: "socia@example.com",
      email: "socia@example.com",
      emailVerified: true,
    })
    .returning();
  for (const email of ["socia@example.com", "nadie@example.com"]) {
    const path = linkFor(email);
    const client = new BrowserClient(reached);
    const reply = await client.post(path, {});
    expect(reply.status).toBe(403);
    expect(plain(reply.text)).toContain(CONSOLE_LINK_MESSAGES.notAdmin(email));
    expect(reply.headers.getSetCookie().join()).not.toContain("ayllu_session=");
  }
  expect(await server.db.select().from(sessions).where(eq(sessions.userId, member!.id))).toEqual(
    [],
  );
  expect(await server.db.select().from(users).where(eq(users.email, "nadie@example.com"))).toEqual(
    [],
  );
});

test("a link past its 15 minutes, altered, signed with another secret or malformed signs nobody in", async () => {
  const good = linkFor("jefa@example.com");
  const token = good.slice("/login/consola/".length);
  const [payload, mac] = token.split(".") as [string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<
    string,
    unknown
  >;
  const forged = Buffer.from(JSON.stringify({ ...claims, e: "otra@example.com" })).toString(
    "base64url",
  );
  const otherSecret = command(["jefa@example.com"], {
    ...TEST_ENV,
    ...ENV,
    SESSION_SECRET: "otra-clave-otra-clave-otra-clave-0123456789",
  });
  const otherPath = /(\/login\/consola\/\S+)/.exec(otherSecret.out)![1]!;
  const bad = [
    `/login/consola/${forged}.${mac}`,
    otherPath,
    "/login/consola/nada",
    `/login/consola/${"a".repeat(2000)}.${mac}`,
    `/login/consola/${payload}.${mac.slice(0, -2)}xx`,
  ];
  for (const path of bad) {
    const client = new BrowserClient(reached);
    const page = await client.get(path);
    expect(page.status, path).toBe(400);
    expect(plain(page.text)).toContain(CONSOLE_LINK_MESSAGES.invalid);
    const post = await client.post(path, {});
    expect(post.status, path).toBe(400);
  }
  // A path that is not even text is refused before any page.
  expect((await new BrowserClient(reached).get("/login/consola/%E0%A4%A")).status).toBe(400);
  // Sixteen minutes later the good one has run out too.
  clock += 16 * 60_000;
  const late = await new BrowserClient(reached).post(good, {});
  expect(late.status).toBe(400);
  expect(plain(late.text)).toContain(CONSOLE_LINK_MESSAGES.invalid);
});

test("the command refuses a wrong command line, and a development server's secret it cannot know", () => {
  for (const args of [[], ["a@example.com", "b@example.com"], ["--ayuda"], ["no-es-correo"]]) {
    const printed = command(args);
    expect(printed.code, args.join(" ")).toBe(2);
    expect(printed.err).toContain("npm run admin-link");
    expect(printed.out).toBe("");
  }
  const { SESSION_SECRET: _unused, ...withoutSecret } = TEST_ENV;
  const dev = command(["jefa@example.com"], { ...withoutSecret, ...ENV, NODE_ENV: "development" });
  expect(dev.code).toBe(1);
  expect(dev.err).toContain("SESSION_SECRET");
  expect(dev.out).toBe("");
});
