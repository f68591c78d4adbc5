import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession, SESSION_IDLE_MS } from "~/members/session.server";
import { sessions, users } from "~/db/schema.server";
import { saveProfile, signInWithIdentity } from "~/members/user.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { startConfiguredServer } from "../helpers/configured-server";
import { startTestServer, type TestServer } from "../helpers/server";
import { reachCallback, signIn, signInMember } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const newEmail = (who = "sesion") => `${who}-${randomUUID()}@example.com`;
const DAY_MS = 24 * 60 * 60 * 1000;

async function userIdOf(email: string): Promise<string> {
  const [user] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error(`No existe ${email}`);
  return user.id;
}

function sessionsOf(userId: string) {
  return server.db.select().from(sessions).where(eq(sessions.userId, userId));
}

/** A signed-in member with a complete profile, and their user id. */
async function createMember() {
  const email = newEmail("miembro");
  const client = await signInMember(server.url, email);
  return { client, email, userId: await userIdOf(email) };
}

/** The Set-Cookie line for `name`, split into its value and its lower-cased attributes. */
function parseSetCookie(lines: string[], name: string) {
  const line = lines.find((l) => l.startsWith(`${name}=`));
  if (!line) return null;
  const [pair, ...attributes] = line.split(";").map((part) => part.trim());
  return {
    value: pair!.slice(name.length + 1),
    attributes: attributes.map((a) => a.toLowerCase()),
  };
}

const expectSignedOut = async (client: BrowserClient) => {
  const reply = await client.get("/profile");
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login?redirectTo=%2Fprofile");
};

const expectSignedIn = async (client: BrowserClient) => {
  const reply = await client.get("/profile");
  expect(reply.status).toBe(200);
};

test("over http the session cookie is HttpOnly, SameSite=Lax, Path=/ and not Secure", async () => {
  const client = new BrowserClient(server.url);
  const callback = await reachCallback(client, { email: newEmail() });
  const reply = await client.get(callback);
  const cookie = parseSetCookie(reply.headers.getSetCookie(), "ayllu_session");
  expect(cookie).not.toBeNull();
  expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(cookie!.attributes).toEqual(
    expect.arrayContaining(["httponly", "samesite=lax", "path=/"]),
  );
  expect(cookie!.attributes).not.toContain("secure");
  expect(cookie!.attributes.some((a) => a.startsWith("domain="))).toBe(false);
  const maxAge = Number(
    cookie!.attributes.find((a) => a.startsWith("max-age="))?.slice("max-age=".length),
  );
  expect(maxAge).toBeGreaterThan(DAY_MS / 1000);
  expect(maxAge).toBeLessThanOrEqual((30 * DAY_MS) / 1000);
});

test("the database keeps only a hash of the session token", async () => {
  const { client, userId } = await createMember();
  const token = client.cookies.get("ayllu_session")!;
  const rows = await sessionsOf(userId);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.idHash).not.toBe(token);
  expect(JSON.stringify(rows)).not.toContain(token);
});

test("over https the session cookie is __Host-ayllu_session with Secure, and the site reads and clears it", async () => {
  const https = await startConfiguredServer({
    PUBLIC_URL: "https://ayllu.example",
    TRUST_PROXY: "1",
  });
  try {
    expect(https.publicUrl.origin).toBe("https://ayllu.example");
    const { user } = await signInWithIdentity(
      https.db,
      {
        issuer: "https://issuer.example",
        subject: "tls-1",
        email: "tls@example.com",
        emailVerified: true,
        name: "TLS",
        picture: null,
      },
      [],
    );
    await saveProfile(https.db, user.id, {
      nombreCompleto: "Persona Segura",
      fechaNacimiento: "1990-01-01",
      pais: "Bolivia",
      ciudad: "Sucre",
      genero: "Otro",
      habilidades: "",
    });
    const setCookie = await createSession(https.db, user.id, {
      secure: https.publicUrl.protocol === "https:",
    });
    const cookie = parseSetCookie([setCookie], "__Host-ayllu_session");
    expect(cookie).not.toBeNull();
    expect(cookie!.attributes).toEqual(
      expect.arrayContaining(["secure", "httponly", "samesite=lax", "path=/"]),
    );
    expect(cookie!.attributes.some((a) => a.startsWith("domain="))).toBe(false);

    // Through the proxy in front (it names the client in X-Forwarded-For) that passes on a Host
    // of its own: the site's cookies are the published address's, Secure and __Host-.
    const proxy = { "X-Forwarded-For": "203.0.113.7" };
    const client = new BrowserClient(https.address);
    client.cookies.set("ayllu_session", cookie!.value);
    expect((await client.get("/profile", proxy)).status).toBe(302);
    client.cookies.clear();
    client.cookies.set("__Host-ayllu_session", cookie!.value);
    const profile = await client.get("/profile", proxy);
    expect(profile.status).toBe(200);
    expect(profile.text).toContain("Persona Segura");

    // A page's form posted from the site's public origin, which is not the address this server
    // is reached at (a proxy that rewrites Host): React Router takes it, not 'Bad Request'.
    const page = await client.post(
      "/login",
      {},
      { origin: "https://ayllu.example", headers: proxy },
    );
    expect(page.status).toBe(302);
    expect(pathOf(page.location)).toBe("/");
    const foreign = await client.post("/login", {}, { origin: "https://otro.example" });
    expect(foreign.status).toBe(403);

    // Straight to another address over plain http (PUBLIC_URL is not where the site is reached,
    // decision 074), the cookies follow that request: a browser there keeps no Secure cookie.
    const direct = new BrowserClient(https.address);
    direct.cookies.set("ayllu_session", cookie!.value);
    expect((await direct.get("/profile")).status).toBe(200);
    direct.cookies.clear();
    direct.cookies.set("__Host-ayllu_session", cookie!.value);
    expect((await direct.get("/profile")).status).toBe(302);

    const out = await client.post(
      "/logout",
      {},
      { origin: "https://ayllu.example", headers: proxy },
    );
    expect(out.status).toBe(302);
    const cleared = parseSetCookie(out.headers.getSetCookie(), "__Host-ayllu_session");
    expect(cleared).toMatchObject({ value: "" });
    expect(cleared!.attributes).toEqual(expect.arrayContaining(["secure", "max-age=0", "path=/"]));
    expect(await https.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(
      0,
    );
  } finally {
    await https.close();
  }
});

test("each sign-in creates a new session id", async () => {
  const email = newEmail("varias");
  const first = new BrowserClient(server.url);
  await signIn(first, { email });
  const firstToken = first.cookies.get("ayllu_session")!;
  expect((await first.post("/logout", {})).status).toBe(302);
  // The development provider asks for the e-mail again (prompt=login), as after a real sign-out.
  expect(await signIn(first, { email })).toBe("/aditionaldata");
  const secondToken = first.cookies.get("ayllu_session")!;

  const other = new BrowserClient(server.url);
  await signIn(other, { email });
  const otherToken = other.cookies.get("ayllu_session")!;

  expect(new Set([firstToken, secondToken, otherToken]).size).toBe(3);
  const rows = await sessionsOf(await userIdOf(email));
  expect(rows).toHaveLength(2);
});

test("POST /logout deletes the session row and goes to /, and the old cookie no longer signs anyone in", async () => {
  const { client, userId } = await createMember();
  const token = client.cookies.get("ayllu_session")!;
  expect(await sessionsOf(userId)).toHaveLength(1);

  const out = await client.post("/logout", {});
  expect(out.status).toBe(302);
  expect(pathOf(out.location)).toBe("/");
  expect(parseSetCookie(out.headers.getSetCookie(), "ayllu_session")).toMatchObject({ value: "" });
  expect(client.cookies.has("ayllu_session")).toBe(false);
  expect(await sessionsOf(userId)).toHaveLength(0);

  const replay = new BrowserClient(server.url);
  replay.cookies.set("ayllu_session", token);
  await expectSignedOut(replay);
  const home = await replay.get("/");
  expect(home.status).toBe(200);
  expect(home.text).toContain('href="/login"');
});

test("GET /logout does not sign out", async () => {
  const { client, userId } = await createMember();
  const reply = await client.get("/logout");
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/");
  expect(reply.headers.getSetCookie()).toEqual([]);
  expect(await sessionsOf(userId)).toHaveLength(1);
  await expectSignedIn(client);
});

test("/cerrar-sesion shows a member the page that signs out with a post to /logout; a visitor is sent home", async () => {
  const { client, userId } = await createMember();
  const page = await client.get("/cerrar-sesion");
  expect(page.status).toBe(200);
  expect(page.text).toContain("Cerrar Sesión</h1>");
  expect(page.text).toMatch(/<noscript><form[^>]*action="\/logout" method="post"/);
  expect(await sessionsOf(userId)).toHaveLength(1);
  const out = await client.post("/logout", {});
  expect(out.status).toBe(302);
  expect(await sessionsOf(userId)).toHaveLength(0);
  const visitor = await new BrowserClient(server.url).get("/cerrar-sesion");
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toBe("/");
});

test("a session past its absolute lifetime is treated as signed out and deleted", async () => {
  const { client, userId } = await createMember();
  await expectSignedIn(client);
  await server.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(sessions.userId, userId));
  await expectSignedOut(client);
  expect(await sessionsOf(userId)).toHaveLength(0);
});

test("a session unused for longer than its idle lifetime is treated as signed out", async () => {
  const { client, userId } = await createMember();
  await server.db
    .update(sessions)
    .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS - 1000) })
    .where(eq(sessions.userId, userId));
  await expectSignedOut(client);
  expect(await sessionsOf(userId)).toHaveLength(0);
});

test("a session used again within its idle lifetime stays signed in and is renewed", async () => {
  const { client, userId } = await createMember();
  const longAgo = new Date(Date.now() - SESSION_IDLE_MS + DAY_MS);
  await server.db.update(sessions).set({ lastSeenAt: longAgo }).where(eq(sessions.userId, userId));
  await expectSignedIn(client);
  const [row] = await sessionsOf(userId);
  expect(row!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
});

test("a POST to /logout from another origin is refused with 403 and keeps the session", async () => {
  const { client, userId } = await createMember();
  for (const target of ["/logout", "/logout.data"]) {
    const reply = await client.post(target, {}, { origin: "https://evil.example" });
    expect(reply.status).toBe(403);
    expect(reply.headers.getSetCookie()).toEqual([]);
  }
  expect(await sessionsOf(userId)).toHaveLength(1);
  await expectSignedIn(client);
});

test("a POST to /aditionaldata from another origin is refused with 403 and saves nothing", async () => {
  const email = newEmail("nueva");
  const client = new BrowserClient(server.url);
  expect(await signIn(client, { email })).toBe("/aditionaldata");
  const reply = await client.post(
    "/aditionaldata",
    {
      nombreCompleto: "Intrusa",
      fechaNacimiento: "1990-01-01",
      pais: "Bolivia",
      ciudad: "Oruro",
      genero: "Otro",
      habilidades: "",
    },
    { origin: "https://evil.example" },
  );
  expect(reply.status).toBe(403);
  const [user] = await server.db.select().from(users).where(eq(users.email, email));
  expect(user).toMatchObject({ nombreCompleto: null, ciudad: null, updatedAt: null });
});

test("a POST to /login from another origin is refused with 403 and starts no sign-in", async () => {
  const client = new BrowserClient(server.url);
  const reply = await client.post(
    "/login",
    { redirectTo: "/profile" },
    { origin: "https://evil.example" },
  );
  expect(reply.status).toBe(403);
  expect(reply.location).toBeNull();
  expect(reply.headers.getSetCookie()).toEqual([]);
  expect(reply.text).toContain("Solicitud rechazada");
});

test("a POST marked Sec-Fetch-Site: cross-site without an Origin is refused too", async () => {
  const { client, userId } = await createMember();
  for (const site of ["cross-site", "same-site"]) {
    const reply = await client.post(
      "/logout",
      {},
      { origin: null, headers: { "Sec-Fetch-Site": site } },
    );
    expect(reply.status).toBe(403);
  }
  expect(await sessionsOf(userId)).toHaveLength(1);
  await expectSignedIn(client);

  const same = await client.post(
    "/logout",
    {},
    { origin: null, headers: { "Sec-Fetch-Site": "same-origin" } },
  );
  expect(same.status).toBe(302);
  expect(await sessionsOf(userId)).toHaveLength(0);
});

test("a sign-in that completes in a browser that already has a session ends the previous session", async () => {
  const email = newEmail("otra-vez");
  const signedIn = new BrowserClient(server.url);
  await signIn(signedIn, { email });
  const before = signedIn.cookies.get("ayllu_session")!;
  // A second tab started signing in before the first one finished; it completes afterwards.
  const tab = new BrowserClient(server.url);
  const callback = await reachCallback(tab, { email });
  tab.cookies.set("ayllu_session", before);
  expect((await tab.get(callback)).status).toBe(302);
  const after = tab.cookies.get("ayllu_session")!;
  expect(after).not.toBe(before);
  expect(await sessionsOf(await userIdOf(email))).toHaveLength(1);
});

test("an account holds at most SESSIONS_PER_ACCOUNT sessions: signing in once more ends the oldest", async () => {
  const limited = await startConfiguredServer({ SESSIONS_PER_ACCOUNT: "3" });
  try {
    const email = newEmail("limite");
    const clients: BrowserClient[] = [];
    for (let i = 0; i < 5; i++) {
      const client = new BrowserClient(limited.address);
      await signIn(client, { email });
      clients.push(client);
    }
    const [user] = await limited.db.select().from(users).where(eq(users.email, email));
    const rows = await limited.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(rows).toHaveLength(3);
    const signedIn = async (client: BrowserClient) =>
      (await client.get("/aditionaldata")).status === 200;
    expect(await Promise.all(clients.map(signedIn))).toEqual([false, false, true, true, true]);
  } finally {
    await limited.close();
  }
});

test("'Cerrar sesión en todos los dispositivos' on /profile ends every session of the member, this one too", async () => {
  const { client, email, userId } = await createMember();
  const phone = new BrowserClient(server.url);
  await signIn(phone, { email });
  const stranger = await createMember();
  expect(await sessionsOf(userId)).toHaveLength(2);

  const page = await client.get("/profile");
  expect(page.text).toContain('<h2 id="sessions-title">Sesiones</h2>');
  expect(page.text).toMatch(
    /<form[^>]*method="post"[^>]*><input type="hidden" name="intent" value="logoutEverywhere"\/><button type="submit" class="button button-ghost">Cerrar sesión en todos los dispositivos<\/button><\/form>/,
  );

  const reply = await client.post("/profile", { intent: "logoutEverywhere" });
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login");
  expect(await sessionsOf(userId)).toEqual([]);
  expect(client.cookies.has("ayllu_session")).toBe(false);
  const landing = await client.get("/login");
  expect(landing.text).toContain("Se cerró la sesión en todos tus dispositivos.");
  expect((await phone.get("/profile")).status).toBe(302);
  // Nobody else is signed out.
  expect(await sessionsOf(stranger.userId)).toHaveLength(1);
  expect((await stranger.client.get("/profile")).status).toBe(200);
});

test("expired and idle sessions are swept on a timer while the server runs", async () => {
  const sweeping = await startConfiguredServer({ SESSION_SWEEP_MINUTES: "0.01" });
  try {
    const { user } = await signInWithIdentity(
      sweeping.db,
      {
        issuer: "https://issuer.example",
        subject: randomUUID(),
        email: newEmail("barrido"),
        emailVerified: true,
        name: "Barrido",
        picture: null,
      },
      [],
    );
    const now = Date.now();
    await sweeping.db.insert(sessions).values([
      {
        idHash: `vencida-${randomUUID()}`,
        userId: user.id,
        createdAt: new Date(now - 40 * DAY_MS),
        lastSeenAt: new Date(now - DAY_MS),
        expiresAt: new Date(now - 1000),
      },
      {
        idHash: `inactiva-${randomUUID()}`,
        userId: user.id,
        createdAt: new Date(now - 20 * DAY_MS),
        lastSeenAt: new Date(now - SESSION_IDLE_MS - 1000),
        expiresAt: new Date(now + 10 * DAY_MS),
      },
    ]);
    await createSession(sweeping.db, user.id, { secure: false });
    const live = () => sweeping.db.select().from(sessions).where(eq(sessions.userId, user.id));
    for (let waited = 0; waited < 10_000 && (await live()).length > 1; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rows = await live();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idHash).not.toMatch(/^(vencida|inactiva)-/);
  } finally {
    await sweeping.close();
  }
});
