import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { users } from "#server/db/schema.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { startTestServer, type TestServer } from "../helpers/server";
import { reachCallback, signIn } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com, Otra.Admin@example.com" });
});
afterAll(() => server?.close());

const newClient = () => new BrowserClient(server.url);

test("a first sign-in creates exactly one profile and goes to /aditionaldata", async () => {
  const client = newClient();
  const landing = await signIn(client, { email: "nueva@example.com", name: "Nueva Persona" });
  expect(landing).toBe("/aditionaldata");
  const rows = await server.db.select().from(users).where(eq(users.email, "nueva@example.com"));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ displayName: "Nueva Persona", isAdmin: false, nombreCompleto: null, emailVerified: true });
  expect(rows[0]!.createdAt).toBeInstanceOf(Date);
});
