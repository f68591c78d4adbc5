import { randomUUID } from "node:crypto";
import net from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { signValue, unsignValue } from "~/members/oidc.server";
import { sessions, users } from "~/db/schema.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { startConfiguredServer } from "../helpers/configured-server";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";
import { reachCallback, signIn } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com, Otra.Admin@example.com" });
});
afterAll(() => server?.close());

const newClient = () => new BrowserClient(server.url);
const newEmail = (who = "persona") => `${who}-${randomUUID()}@example.com`;

function profilesOf(email: string) {
  return server.db.select().from(users).where(eq(users.email, email));
}

async function countRows(table: typeof users | typeof sessions): Promise<number> {
  const [row] = await server.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}

const ADDITIONAL_DATA = {
  nombreCompleto: "Ana Quispe Mamani",
  fechaNacimiento: "1991-03-02",
  pais: "Bolivia",
  ciudad: "El Alto",
  genero: "Femenino",
  habilidades: "Micromouse",
};

/** A browser that has signed in as `email` and, when asked, completed the additional data. */
async function signedIn(email: string, options: { complete: boolean; name?: string }) {
  const client = newClient();
  expect(await signIn(client, { email, name: options.name ?? "Cuenta de Prueba" })).toBe(
    "/aditionaldata",
  );
  if (options.complete) {
    const saved = await client.post("/aditionaldata", ADDITIONAL_DATA);
    expect(saved.status).toBe(302);
  }
  return client;
}

/** The hidden redirectTo field of the login form, if the page has one. */
function hiddenRedirectTo(html: string): string | null {
  return /<input type="hidden" name="redirectTo" value="([^"]*)"/.exec(html)?.[1] ?? null;
}

/** The value of a cookie set by `setCookie` lines, or undefined. */
function setCookieValue(lines: string[], name: string): string | undefined {
  const line = lines.find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(";")[0];
}

test("a first sign-in creates exactly one profile and goes to /aditionaldata", async () => {
  const email = newEmail("nueva");
  const before = await countRows(users);
  const landing = await signIn(newClient(), { email, name: "Nueva Persona" });
  expect(landing).toBe("/aditionaldata");
  expect(await countRows(users)).toBe(before + 1);
  const rows = await profilesOf(email);
  expect(rows).toHaveLength(1);
  const profile = rows[0]!;
  expect(profile).toMatchObject({
    email,
    displayName: "Nueva Persona",
    photoURL: null,
    isAdmin: false,
    nombreCompleto: null,
    emailVerified: true,
  });
  expect(profile.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(profile.createdAt).toBeInstanceOf(Date);
  expect(Math.abs(profile.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
});

test("a second sign-in neither duplicates nor overwrites the profile", async () => {
  const email = newEmail("vuelve");
  await signedIn(email, { complete: true, name: "Primer Nombre" });
  const [first] = await profilesOf(email);

  const landing = await signIn(newClient(), { email, name: "Otro Nombre Escrito Después" });
  expect(landing).toBe("/");
  const rows = await profilesOf(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toEqual(first);
  expect(rows[0]).toMatchObject({
    displayName: "Primer Nombre",
    nombreCompleto: "Ana Quispe Mamani",
    ciudad: "El Alto",
  });
});

test("a returning member without nombreCompleto goes to /aditionaldata again", async () => {
  const email = newEmail("incompleta");
  await signedIn(email, { complete: false });
  expect(await signIn(newClient(), { email })).toBe("/aditionaldata");
  expect(await profilesOf(email)).toHaveLength(1);
});

test("a returning member with nombreCompleto goes to /", async () => {
  const email = newEmail("completa");
  await signedIn(email, { complete: true });
  expect(await signIn(newClient(), { email })).toBe("/");
});

test("a signed-in member with a complete profile who opens /login is sent to / or to the page asked for", async () => {
  const client = await signedIn(newEmail("en-login"), { complete: true });
  expect(pathOf((await client.get("/login")).location)).toBe("/");
  expect(pathOf((await client.get("/login?redirectTo=%2Fprofile")).location)).toBe("/profile");
  const page = await client.get("/profile");
  expect(page.status).toBe(200);
});

test("a signed-in member without nombreCompleto who opens /login is sent to /aditionaldata", async () => {
  const client = await signedIn(newEmail("en-login-incompleta"), { complete: false });
  expect(pathOf((await client.get("/login")).location)).toBe("/aditionaldata");
  expect(pathOf((await client.get("/login?redirectTo=%2Fprofile")).location)).toBe(
    "/aditionaldata?redirectTo=%2Fprofile",
  );
});

test("a visitor sent from /profile to /login comes back to /profile after signing in", async () => {
  const email = newEmail("regresa");
  await signedIn(email, { complete: true });

  const client = newClient();
  const asked = await client.get("/profile");
  expect(asked.status).toBe(302);
  expect(pathOf(asked.location)).toBe("/login?redirectTo=%2Fprofile");
  const login = await client.get(asked.location!);
  expect(login.status).toBe(200);
  const redirectTo = hiddenRedirectTo(login.text);
  expect(redirectTo).toBe("/profile");

  const landing = await signIn(client, { email, redirectTo: redirectTo! });
  expect(landing).toBe("/profile");
  const profile = await client.get(landing!);
  expect(profile.status).toBe(200);
  expect(profile.text).toContain("Ana Quispe Mamani");
});

test("a visitor sent from /profile whose profile is incomplete fills in the additional data first, then reaches /profile", async () => {
  const client = newClient();
  const asked = await client.get("/profile");
  expect(pathOf(asked.location)).toBe("/login?redirectTo=%2Fprofile");

  const landing = await signIn(client, { email: newEmail("primera-vez"), redirectTo: "/profile" });
  expect(landing).toBe("/aditionaldata?redirectTo=%2Fprofile");
  const form = await client.get(landing!);
  expect(form.status).toBe(200);
  expect(hiddenRedirectTo(form.text)).toBe("/profile");

  const saved = await client.post("/aditionaldata", { ...ADDITIONAL_DATA, redirectTo: "/profile" });
  expect(saved.status).toBe(302);
  expect(pathOf(saved.location)).toBe("/profile");
});

const FOREIGN_TARGETS = [
  "//evil.example",
  "https://evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "/a/..//evil.example",
  "javascript:alert(1)",
];

test.each(FOREIGN_TARGETS)("redirectTo=%s is ignored after signing in", async (target) => {
  const email = newEmail("destino");
  await signedIn(email, { complete: true });

  const client = newClient();
  const login = await client.get(`/login?redirectTo=${encodeURIComponent(target)}`);
  expect(login.status).toBe(200);
  expect(hiddenRedirectTo(login.text)).toBeNull();

  // Sent straight to POST /login, as a crafted form would.
  const callback = await reachCallback(client, { email, redirectTo: target });
  const reply = await client.get(callback);
  expect(reply.status).toBe(302);
  expect(reply.location).toBe(new URL("/", server.url).toString());

  const again = await client.get(`/login?redirectTo=${encodeURIComponent(target)}`);
  expect(again.location).toBe(new URL("/", server.url).toString());
});

test("redirectTo=//evil.example is ignored when a newcomer saves the additional data", async () => {
  const client = await signedIn(newEmail("nueva-destino"), { complete: false });
  const saved = await client.post("/aditionaldata", {
    ...ADDITIONAL_DATA,
    redirectTo: "//evil.example",
  });
  expect(saved.status).toBe(302);
  expect(saved.location).toBe(new URL("/", server.url).toString());
});

test("a callback whose state was tampered with is refused, and no session or profile is created", async () => {
  const email = newEmail("estado");
  const client = newClient();
  const callback = new URL(await reachCallback(client, { email }));
  expect(callback.searchParams.get("state")).toBeTruthy();
  callback.searchParams.set("state", `${callback.searchParams.get("state")}x`);
  const sessionsBefore = await countRows(sessions);

  const reply = await client.get(callback.toString());
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/login?error=1");
  expect(reply.headers.getSetCookie().some((line) => line.startsWith("ayllu_session="))).toBe(
    false,
  );
  expect(client.cookies.has("ayllu_session")).toBe(false);
  expect(await countRows(sessions)).toBe(sessionsBefore);
  expect(await profilesOf(email)).toHaveLength(0);
  expect((await client.get("/profile")).status).toBe(302);
});

test("a transaction cookie re-signed with another nonce is refused", async () => {
  // The same transaction re-signed as it was is accepted: what the server refuses below is the nonce.
  const control = newClient();
  const controlCallback = await reachCallback(control, { email: newEmail("control") });
  control.cookies.set(
    "ayllu_signin",
    signValue(
      unsignValue(control.cookies.get("ayllu_signin")!, TEST_SESSION_SECRET)!,
      TEST_SESSION_SECRET,
    ),
  );
  expect(pathOf((await control.get(controlCallback)).location)).toBe("/aditionaldata");

  const email = newEmail("nonce");
  const client = newClient();
  const callback = await reachCallback(client, { email });
  const json = unsignValue(client.cookies.get("ayllu_signin")!, TEST_SESSION_SECRET);
  expect(json).not.toBeNull();
  const transaction = JSON.parse(json!) as { state: string; nonce: string; codeVerifier: string };
  expect(transaction.state).toBe(new URL(callback).searchParams.get("state"));
  client.cookies.set(
    "ayllu_signin",
    signValue(
      JSON.stringify({ ...transaction, nonce: `${transaction.nonce}-otro` }),
      TEST_SESSION_SECRET,
    ),
  );

  const reply = await client.get(callback);
  expect(pathOf(reply.location)).toBe("/login?error=1");
  expect(client.cookies.has("ayllu_session")).toBe(false);
  expect(await profilesOf(email)).toHaveLength(0);
});

test("a transaction cookie with a bad signature is refused", async () => {
  const email = newEmail("firma");
  const client = newClient();
  const callback = await reachCallback(client, { email });
  const real = client.cookies.get("ayllu_signin")!;
  const json = unsignValue(real, TEST_SESSION_SECRET)!;

  for (const forged of [
    signValue(json, "otro-secreto-otro-secreto-otro-secreto-0123"),
    `${real.split(".")[0]}.${"A".repeat(43)}`,
    real.split(".")[0]!,
  ]) {
    client.cookies.set("ayllu_signin", forged);
    const reply = await client.get(callback);
    expect(pathOf(reply.location)).toBe("/login?error=1");
    expect(client.cookies.has("ayllu_session")).toBe(false);
  }
  expect(await profilesOf(email)).toHaveLength(0);
});

test("a callback opened in a browser that did not start the sign-in is refused", async () => {
  const email = newEmail("otro-navegador");
  const callback = await reachCallback(newClient(), { email });
  const stranger = newClient();
  const reply = await stranger.get(callback);
  expect(pathOf(reply.location)).toBe("/login?error=1");
  expect(stranger.cookies.has("ayllu_session")).toBe(false);
  expect(await profilesOf(email)).toHaveLength(0);
});

test("a finished sign-in clears the transaction cookie, and its callback cannot be replayed", async () => {
  const email = newEmail("repite");
  const client = newClient();
  const callback = await reachCallback(client, { email });
  const transactionCookie = client.cookies.get("ayllu_signin")!;
  const reply = await client.get(callback);
  expect(pathOf(reply.location)).toBe("/aditionaldata");
  expect(setCookieValue(reply.headers.getSetCookie(), "ayllu_signin")).toBe("");
  expect(client.cookies.has("ayllu_signin")).toBe(false);

  // Even with the cookie and the URL both copied, the code is spent.
  const replay = newClient();
  replay.cookies.set("ayllu_signin", transactionCookie);
  expect(pathOf((await replay.get(callback)).location)).toBe("/login?error=1");
  expect(replay.cookies.has("ayllu_session")).toBe(false);
  expect(await profilesOf(email)).toHaveLength(1);
});

test("an unverified e-mail listed in ADMIN_EMAILS never becomes admin", async () => {
  for (let i = 0; i < 2; i++) {
    const landing = await signIn(newClient(), { email: "jefa@example.com", verified: false });
    expect(landing).toBe("/aditionaldata");
  }
  const rows = await profilesOf("jefa@example.com");
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ isAdmin: false, emailVerified: false });
});

test("a verified e-mail listed in ADMIN_EMAILS becomes admin, whatever its letter case", async () => {
  await signIn(newClient(), { email: "OTRA.admin@Example.com", verified: true });
  const [admin] = await profilesOf("otra.admin@example.com");
  expect(admin).toMatchObject({ isAdmin: true });

  const member = newEmail("no-admin");
  await signIn(newClient(), { email: member, verified: true });
  expect((await profilesOf(member))[0]).toMatchObject({ isAdmin: false });
});

test("the login page shows the specification's texts", async () => {
  const reply = await newClient().get("/login");
  expect(reply.status).toBe(200);
  expect(reply.text).toMatch(/<h1[^>]*>Iniciar Sesión<\/h1>/);
  expect(reply.text).toContain(
    "<p>Inicia sesión con tu cuenta de Google para usar todas las funciones.</p>",
  );
  expect(reply.text).toMatch(
    /<form[^>]* action="\/login" method="post">[\s\S]*<button type="submit"[^>]*>[\s\S]*Iniciar Sesión con Google<\/button>/,
  );
  expect(reply.text).not.toContain("Error during Google login. Please try again.");
});

test("a failed sign-in shows 'Error during Google login. Please try again.' on /login?error=1", async () => {
  const client = newClient();
  const callback = new URL(await reachCallback(client, { email: newEmail("falla") }));
  callback.searchParams.set("code", "codigo-falso");
  const failed = await client.get(callback.toString());
  expect(pathOf(failed.location)).toBe("/login?error=1");

  const page = await client.get(failed.location!);
  expect(page.status).toBe(200);
  expect(page.text).toContain(
    '<p class="dialog-message">Error during Google login. Please try again.</p>',
  );
  expect(page.text).toContain("Iniciar Sesión con Google");
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test("when the identity provider cannot be reached, POST /login shows the sign-in error and keeps redirectTo", async () => {
  const unreachable = await startConfiguredServer({
    OIDC_ISSUER: `http://127.0.0.1:${await closedPort()}/`,
    OIDC_CLIENT_ID: "ayllu",
    OIDC_CLIENT_SECRET: "secreto",
  });
  try {
    const client = new BrowserClient(unreachable.address);
    const reply = await client.post("/login", { redirectTo: "/profile" });
    expect(reply.status).toBe(302);
    expect(pathOf(reply.location)).toBe("/login?error=1&redirectTo=%2Fprofile");
    expect(client.cookies.has("ayllu_signin")).toBe(false);
    const page = await client.get(reply.location!);
    expect(page.text).toContain(
      '<p class="dialog-message">Error during Google login. Please try again.</p>',
    );
    expect(hiddenRedirectTo(page.text)).toBe("/profile");
  } finally {
    await unreachable.close();
  }
});
