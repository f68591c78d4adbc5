// 'Organiza' on an event's page names the publisher by their profile's name (nombreCompleto), not
// by the name their sign-in provider gave; the name kept at publishing only once the account is
// gone. Notes, resources and projects keep the profile's name too.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, users } from "~/db/schema.server";
import { publisherNameOf } from "~/publications/publisher.server";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
});
afterAll(() => server?.close());

failOnConsoleError();

/** What the page's 'Organiza' says. */
const organisedBy = (html: string) =>
  /<dt>Organiza<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1]?.replaceAll("&#x27;", "'") ?? null;

test("'Organiza' shows the publisher's profile name, follows a change of it, and falls back to the kept name once the account is gone", async () => {
  const admin = await createAdmin(server);
  // The sign-in provider calls her 'Jefa Admin'; her profile says who she is.
  await server.db
    .update(users)
    .set({ nombreCompleto: "Josefina Mamani Quispe" })
    .where(eq(users.id, admin.user.id));
  const [publisher] = await server.db.select().from(users).where(eq(users.id, admin.user.id));
  expect(publisher!.displayName).toBe("Jefa Admin");
  const event = await createTestEvent(server.db, publisher!);
  const [stored] = await server.db.select().from(events).where(eq(events.id, event.id));
  expect(stored!.publishedByName).toBe("Josefina Mamani Quispe");

  const viewer = await createMember(server);
  const page = async () => organisedBy((await viewer.client.get(`/detalles/${event.id}`)).text);
  expect(await page()).toBe("Josefina Mamani Quispe");

  // An event published before: its kept name is the sign-in's; the page still says the profile's.
  await server.db
    .update(events)
    .set({ publishedByName: "Jefa Admin" })
    .where(eq(events.id, event.id));
  expect(await page()).toBe("Josefina Mamani Quispe");

  await server.db
    .update(users)
    .set({ nombreCompleto: "Josefina Mamani" })
    .where(eq(users.id, admin.user.id));
  expect(await page()).toBe("Josefina Mamani");

  // A blank profile name is no name: the sign-in's is shown rather than nothing.
  await server.db.update(users).set({ nombreCompleto: "  " }).where(eq(users.id, admin.user.id));
  expect(await page()).toBe("Jefa Admin");

  // The account is gone (publishedBy set null): the name kept at publishing.
  await server.db
    .update(events)
    .set({ publishedBy: null, publishedByName: "Josefina M." })
    .where(eq(events.id, event.id));
  expect(await page()).toBe("Josefina M.");
});

test("notes, resources and projects keep the publisher's profile name, then the sign-in name, then 'Admin'", () => {
  expect(publisherNameOf({ nombreCompleto: "Ana Quispe", displayName: "Ana Admin" })).toBe(
    "Ana Quispe",
  );
  expect(publisherNameOf({ nombreCompleto: " ", displayName: "Ana Admin" })).toBe("Ana Admin");
  expect(publisherNameOf({ nombreCompleto: null, displayName: null })).toBe("Admin");
});
