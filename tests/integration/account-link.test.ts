import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { participations, users } from "~/db/schema.server";
import { importFirebase } from "#server/import/import.server";
import { readExportFiles } from "#server/import/read-export.server";
import { IMPORTED_ISSUER, linkOptionsFor } from "~/members/account-link.server";
import { signInWithIdentity } from "~/members/user.server";
import { BrowserClient } from "../helpers/browser-client";
import { createTestDatabase } from "../helpers/database";
import { FIXTURE_FILES } from "../helpers/firebase";
import { startTestServer, type TestServer } from "../helpers/server";
import { signIn } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await importFirebase(server.db, await readExportFiles(FIXTURE_FILES), {
    timeZone: "America/La_Paz",
  });
});
afterAll(() => server?.close());

async function member(uid: string) {
  const [row] = await server.db.select().from(users).where(eq(users.firebaseUid, uid));
  return row!;
}

async function usersWithEmail(email: string) {
  return server.db.select().from(users).where(eq(users.email, email));
}

test("an imported member signing in with their Google account (subject = Auth rawId) is themselves again", async () => {
  const before = await server.db.$count(users);
  const client = new BrowserClient(server.url);
  // The e-mail typed does not matter: the subject decides.
  const landing = await signIn(client, {
    email: "otra-direccion@example.com",
    subject: "108000000000000000001",
  });
  expect(landing).toBe("/");
  expect(await server.db.$count(users)).toBe(before);
  const ana = await member("uGoogleAna");
  expect(ana).toMatchObject({
    issuer: new URL("/__dev/oidc", server.url).toString(),
    subject: "108000000000000000001",
    isAdmin: true,
    nombreCompleto: "Ana Quispe Mamani",
  });
  expect(await server.db.$count(participations, eq(participations.userId, ana.id))).toBe(1);
  const profile = await client.get("/profile");
  expect(profile.text).toContain("Ana Quispe Mamani");
  expect(profile.text).toContain("Taller de Micromouse");
  expect((await client.get("/admin")).status).toBe(200);

  // The next sign-in finds the same member directly.
  expect(
    await signIn(new BrowserClient(server.url), {
      email: "x@example.com",
      subject: "108000000000000000001",
    }),
  ).toBe("/");
  expect(await server.db.$count(users)).toBe(before);
});

test("an imported member without a Google account re-links by verified e-mail, trimmed and in any case", async () => {
  const before = await server.db.$count(users);
  const client = new BrowserClient(server.url);
  expect(await signIn(client, { email: "SIN.AUTH@example.COM" })).toBe("/");
  expect(await server.db.$count(users)).toBe(before);
  const linked = await member("uNoAuth");
  expect(linked.issuer).not.toBe(IMPORTED_ISSUER);
  expect(linked.emailVerified).toBe(true);
  expect((await client.get("/profile")).text).toContain("Sin Cuenta Auth");
});

test("an unverified e-mail links nobody", async () => {
  expect(
    await signIn(new BrowserClient(server.url), { email: "luis@example.com", verified: false }),
  ).toBe("/aditionaldata");
  expect((await member("uPassLuis")).issuer).toBe(IMPORTED_ISSUER);
  const created = await usersWithEmail("luis@example.com");
  expect(created.filter((u) => u.firebaseUid === null)).toHaveLength(1);
});

test("two imported members with one e-mail link by their Google subject only", async () => {
  expect(await signIn(new BrowserClient(server.url), { email: "dup@example.com" })).toBe(
    "/aditionaldata",
  );
  expect((await member("uDup1")).issuer).toBe(IMPORTED_ISSUER);
  expect((await member("uDup2")).issuer).toBe(IMPORTED_ISSUER);

  expect(
    await signIn(new BrowserClient(server.url), {
      email: "dup@example.com",
      subject: "108000000000000000004",
    }),
  ).toBe("/");
  const first = await member("uDup1");
  expect(first.subject).toBe("108000000000000000004");
  expect(first.nombreCompleto).toBe("Primera Dup");
  expect((await member("uDup2")).issuer).toBe(IMPORTED_ISSUER);
});

test("a member whose Google account is known is not taken over by another account with the same e-mail", async () => {
  expect(
    await signIn(new BrowserClient(server.url), {
      email: "solo-auth@example.com",
      subject: "108000000000000000999",
    }),
  ).toBe("/aditionaldata");
  expect((await member("uAuthOnly")).issuer).toBe(IMPORTED_ISSUER);
});

test("the development provider refuses a malformed subject", async () => {
  const client = new BrowserClient(server.url);
  await expect(signIn(client, { email: "a@example.com", subject: "con espacios" })).rejects.toThrow(
    /400/,
  );
});

test("with another OpenID issuer only the verified e-mail links, never the Google subject", async () => {
  const database = await createTestDatabase();
  try {
    const db = database.db;
    await importFirebase(db, await readExportFiles(FIXTURE_FILES), { timeZone: "America/La_Paz" });
    const options = linkOptionsFor({ kind: "external", issuer: "https://sso.example.org" });
    expect(options.googleSubjects).toBe(false);
    const identity = {
      issuer: "https://sso.example.org",
      email: "someone@example.org",
      emailVerified: true,
      name: null,
      picture: null,
    };
    // Ana's Google subject, at another issuer, is somebody else.
    const stranger = await signInWithIdentity(
      db,
      { ...identity, subject: "108000000000000000001" },
      [],
      options,
    );
    expect(stranger.created).toBe(true);
    expect(stranger.user.firebaseUid).toBeNull();
    // Her verified e-mail, at any issuer, is her.
    const ana = await signInWithIdentity(
      db,
      { ...identity, subject: "kc-1", email: " ana.quispe@EXAMPLE.com" },
      [],
      options,
    );
    expect(ana.created).toBe(false);
    expect(ana.user).toMatchObject({
      firebaseUid: "uGoogleAna",
      issuer: "https://sso.example.org",
      subject: "kc-1",
    });
    // Duplicated e-mails link nobody there either.
    const dup = await signInWithIdentity(
      db,
      { ...identity, subject: "kc-2", email: "dup@example.com" },
      [],
      options,
    );
    expect(dup.created).toBe(true);
    expect(
      await db.$count(users, and(isNotNull(users.firebaseUid), eq(users.issuer, IMPORTED_ISSUER))),
    ).toBe(5);
  } finally {
    await database.close();
  }
});
