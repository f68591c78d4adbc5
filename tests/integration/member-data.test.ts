import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MEMBER_MESSAGES } from "~/members/messages";
import { zonedToInstant } from "~/kernel/time";
import { events, notes, participations, sessions, users } from "~/db/schema.server";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { NotSignedInError } from "~/members/errors";
import { rowsOf } from "~/db/rows.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { startTestServer, type TestServer } from "../helpers/server";
import { signInMember } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

failOnConsoleError();

async function createMember(name = "Miembro de Prueba") {
  const email = `datos-${randomUUID()}@example.com`;
  const client = await signInMember(server.url, email, name);
  await client.get("/"); // the 'saved' message of the profile form has been seen
  const [user] = await server.db.select().from(users).where(eq(users.email, email));
  return { client, user: user!, email };
}

async function createEvent(publisher: { id: string } | null = null) {
  const [event] = await server.db
    .insert(events)
    .values({
      nombreEvento: `Taller ${randomUUID().slice(0, 8)}`,
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      fechaEvento: "2030-03-01",
      horaEvento: "18:00",
      startsAt: zonedToInstant("2030-03-01", "18:00", "America/La_Paz"),
      endsAt: zonedToInstant("2030-03-01", "20:00", "America/La_Paz"),
      imagenEnlace: "https://images.example.com/taller.jpg",
      descripcion: "Un taller.",
      publishedBy: publisher?.id ?? null,
      publishedByName: "Admin Publicadora",
    })
    .returning();
  return event!;
}

const deletePost = (client: BrowserClient, fields: Record<string, string> = {}) =>
  client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar", ...fields });

test("a visitor can neither download data nor delete an account: both go to /login", async () => {
  const visitor = new BrowserClient(server.url);
  const download = await visitor.get("/profile/datos");
  expect(download.status).toBe(302);
  expect(pathOf(download.location)).toBe("/login?redirectTo=%2Fprofile%2Fdatos");
  const before = await server.db.$count(users);
  const post = await deletePost(visitor);
  expect(post.status).toBe(302);
  expect(pathOf(post.location)).toMatch(/^\/login/);
  expect(await server.db.$count(users)).toBe(before);
  await expect(exportMemberData(server.db, null)).rejects.toBeInstanceOf(NotSignedInError);
  await expect(deleteAccount(server.db, null)).rejects.toBeInstanceOf(NotSignedInError);
});

test("'Descargar mis datos' is a JSON file of everything about the member, and only about them", async () => {
  const { client, user, email } = await createMember("Ana Datos");
  const other = await createMember("Otra Persona");
  const event = await createEvent();
  await server.db.insert(participations).values({ userId: user.id, eventId: event.id });
  await server.db.insert(participations).values({ userId: other.user.id, eventId: event.id });

  const profile = await client.get("/profile");
  expect(profile.text).toContain('href="/profile/datos"');
  expect(profile.text).toContain("Descargar mis datos");

  const reply = await client.get("/profile/datos");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(reply.headers.get("content-disposition")).toMatch(
    /^attachment; filename="mis-datos-ayllu-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  expect(reply.headers.get("cache-control")).toBe("no-store");
  const body = JSON.parse(reply.text);
  expect(body.perfil).toMatchObject({
    uid: user.id,
    email,
    nombreCompleto: "Ana Datos",
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    isAdmin: false,
  });
  expect(body.participaciones).toEqual([
    expect.objectContaining({
      eventId: event.id,
      nombreEvento: event.nombreEvento,
      horaEvento: "18:00",
    }),
  ]);
  expect(body.sesiones.length).toBeGreaterThanOrEqual(1);
  expect(reply.text).not.toContain(other.email);
  const [session] = await server.db.select().from(sessions).where(eq(sessions.userId, user.id));
  expect(reply.text).not.toContain(session!.idHash);
});

test("'Eliminar mi cuenta' asks for confirmation first, in a dialog", async () => {
  const { client, user } = await createMember();
  const page = await client.get("/profile?eliminar=1");
  expect(page.status).toBe(200);
  expect(page.text).toContain('role="alertdialog"');
  expect(page.text).toContain("¿Estás seguro de que quieres eliminar tu cuenta?");
  expect(await server.db.$count(users, eq(users.id, user.id))).toBe(1);
});

test("a deletion without the dialog's confirmation, or with a wrong one, changes nothing", async () => {
  const { client, user } = await createMember();
  for (const confirmar of [undefined, "", "si", "eliminar ".repeat(200)]) {
    const fields: Record<string, string> = { intent: "deleteAccount" };
    if (confirmar !== undefined) fields.confirmar = confirmar;
    const reply = await client.post("/profile", fields);
    expect(reply.status).toBe(400);
    expect(reply.text).toContain(MEMBER_MESSAGES.accountDeleteUnconfirmed);
  }
  const malformed = await client.request("POST", "/profile", {
    body: "intent=deleteAccount&confirmar=%E0%A4%A",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(malformed.status).toBeGreaterThanOrEqual(400);
  expect(malformed.status).toBeLessThan(500);
  expect(await server.db.$count(users, eq(users.id, user.id))).toBe(1);
  expect((await client.get("/profile")).status).toBe(200);
});

test("deleting an account removes the profile, sessions and participations, and signs out", async () => {
  const { client, user } = await createMember();
  const other = await createMember();
  const event = await createEvent();
  await server.db.insert(participations).values([
    { userId: user.id, eventId: event.id },
    { userId: other.user.id, eventId: event.id },
  ]);
  const reply = await deletePost(client);
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe("/");
  expect(await server.db.$count(users, eq(users.id, user.id))).toBe(0);
  expect(await server.db.$count(sessions, eq(sessions.userId, user.id))).toBe(0);
  expect(await server.db.$count(participations, eq(participations.userId, user.id))).toBe(0);
  const home = await client.get("/");
  expect(home.text).toContain(MEMBER_MESSAGES.accountDeleted);
  expect(pathOf((await client.get("/profile")).location)).toMatch(/^\/login/);
  // Nobody else is touched.
  expect(await server.db.$count(participations, eq(participations.userId, other.user.id))).toBe(1);
  expect((await other.client.get("/profile")).status).toBe(200);
});

test("a member's uploads of the last minute (counted for the per-minute limit) are in their data, and go with their account", async () => {
  const { client, user } = await createMember();
  const other = await createMember();
  const photo = await sharp({
    create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .png()
    .toBuffer();
  for (const who of [client, other.client]) {
    const form = new FormData();
    form.append("imagen", new Blob([new Uint8Array(photo)], { type: "image/png" }), "yo.png");
    const uploaded = await who.request("POST", "/subidas?para=perfil", { body: form });
    expect(uploaded.status).toBe(200);
  }
  const counted = async (id: string) =>
    rowsOf<{ n: number }>(
      await server.db.execute(
        sql`select count(*)::int as n from upload_attempts where user_id = ${id}`,
      ),
    )[0]!.n;
  expect(await counted(user.id)).toBe(1);

  const data = JSON.parse((await client.get("/profile/datos")).text);
  expect(data.subidasRecientes).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/)]);

  expect((await deletePost(client)).status).toBe(302);
  expect(await counted(user.id)).toBe(0);
  expect(await counted(other.user.id)).toBe(1);
});

test("content an admin published stays, with its publisher name, after they delete their account", async () => {
  const first = await createMember("Admin Publicadora");
  const second = await createMember("Otra Admin");
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, first.user.id));
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, second.user.id));
  const event = await createEvent(first.user);
  const [note] = await server.db
    .insert(notes)
    .values({
      titulo: "Nota",
      texto: "Texto",
      publisher: first.user.id,
      publisherName: "Admin Publicadora",
    })
    .returning();
  expect((await deletePost(first.client)).status).toBe(302);
  const [keptEvent] = await server.db.select().from(events).where(eq(events.id, event.id));
  expect(keptEvent).toMatchObject({ publishedBy: null, publishedByName: "Admin Publicadora" });
  const [keptNote] = await server.db.select().from(notes).where(eq(notes.id, note!.id));
  expect(keptNote).toMatchObject({ publisher: null, publisherName: "Admin Publicadora" });
  expect(
    (await server.db.select().from(users).where(eq(users.id, second.user.id)))[0]!.isAdmin,
  ).toBe(true);
});

test("the last admin cannot delete their account", async () => {
  const { client, user } = await createMember("Única Admin");
  await server.db.update(users).set({ isAdmin: false });
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
  const reply = await deletePost(client);
  expect(reply.status).toBe(409);
  expect(reply.text).toContain(MEMBER_MESSAGES.accountDeleteLastAdmin);
  expect(await server.db.$count(users, eq(users.id, user.id))).toBe(1);
  expect((await client.get("/profile")).status).toBe(200);

  // With a second admin, she can go.
  const other = await createMember();
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, other.user.id));
  expect((await deletePost(client)).status).toBe(302);
  expect(await server.db.$count(users, eq(users.id, user.id))).toBe(0);
});
