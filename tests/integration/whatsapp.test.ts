// WhatsApp first (issue 36, decision 047): share links (wa.me) on events, notes, resources and
// projects that work without JavaScript; an event's group chat link that only members with a
// place see (not visitors, not those waiting, not other members), on the page and in their
// confirmation, seat and reminder mails; a reminder text to send oneself from the event page and
// the profile; the form's refusals of a bad group link, with nothing changed.
import { checkInCode } from "~/attendance/check-in.server";
import { formatCheckInCode } from "~/attendance/check-in";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, mailOutbox, payments, type User } from "~/db/schema.server";
import { decidePayment } from "~/payments/review.server";
import { CHAT_LINK_INVALID } from "~/events/schemas";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { composeMail, type MailSite } from "~/mail/compose.server";
import { getQueuedMail, queueDueReminders } from "~/mail/mail.server";
import { createNote } from "~/publications/note.server";
import { createProject } from "~/publications/project.server";
import { createResource } from "~/publications/resource.server";
import type { BrowserClient } from "../helpers/browser-client";
import { BrowserClient as Client } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import {
  createAdmin,
  createMember,
  createTestEvent,
  eventFieldError,
  eventForm,
} from "../helpers/events";
import { noteInput, projectInput, resourceInput } from "../helpers/publications";
import { startTestServer, type TestServer } from "../helpers/server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";

const GROUP = "https://chat.whatsapp.com/AbCdEfGhIjK123";
const SITE: MailSite = {
  origin: "https://ayllu.example",
  hostname: "ayllu.example",
  from: "Ayllu <eventos@ayllu.example>",
  timeZone: "America/La_Paz",
};

type Person = { client: BrowserClient; user: User };
let server: TestServer;
let admin: Person;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

/** The texts of the page's wa.me links, decoded. */
function whatsappTexts(html: string): string[] {
  return [...html.matchAll(/href="https:\/\/wa\.me\/\?text=([^"]*)"/g)].map((m) =>
    decodeURIComponent(m[1]!.replaceAll("&amp;", "&")),
  );
}

async function mailsOf(userId: string) {
  const rows = await server.db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.userId, userId));
  return Promise.all(
    rows.map(async (r) => composeMail((await getQueuedMail(server.db, r.id))!, SITE, MAIL_DRAFTS)),
  );
}

test("events, notes, resources and projects have a WhatsApp link with the title and the page's address", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Taller de Sumo" });
  const note = await createNote(server.db, admin.user, noteInput({ titulo: "Crónica" }));
  const resource = await createResource(server.db, admin.user, resourceInput({ titulo: "Guía" }));
  const project = await createProject(server.db, admin.user, projectInput({ titulo: "Ratón" }));
  const origin = server.config.publicUrl.origin;
  const visitor = new Client(server.url);
  const pages: [string, string][] = [
    [`/detalles/${event.id}`, "Taller de Sumo"],
    [`/notas/${note.id}`, "Crónica"],
    [`/recursos/${resource.id}`, "Guía"],
    [`/proyectos/${project.id}`, "Ratón"],
  ];
  for (const [page, title] of pages) {
    const html = (await visitor.get(page)).text;
    const [text] = whatsappTexts(html);
    expect(text, page).toBeDefined();
    expect(text!.split("\n")[0]).toBe(title);
    expect(text!.split("\n").at(-1)).toBe(`${origin}${page}`);
    // A plain link: it works before (and without) any script.
    expect(html).toMatch(/<a class="button button-secondary" href="https:\/\/wa\.me\/\?text=/);
  }
  // The event's says when and where.
  const [eventText] = whatsappTexts((await visitor.get(`/detalles/${event.id}`)).text);
  expect(eventText).toContain("viernes, 6 de diciembre de 2030");
  expect(eventText).toContain("Bolivia, La Paz — Obrajes C2");
});

test("the group chat link is for those with a place only: on the page and in their mails", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Club con grupo",
    capacity: "1",
    enlaceGrupo: GROUP,
  });
  const ana = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  const beto = await createMember(server, `beto-${randomUUID()}@example.com`, "Beto Mamani");
  const ceci = await createMember(server, `ceci-${randomUUID()}@example.com`, "Ceci Condori");
  await joinEvent(server.db, ana.user, event.id);
  await joinEvent(server.db, beto.user, event.id); // waiting: the one seat is Ana's

  const page = (who: BrowserClient) => who.get(`/detalles/${event.id}`).then((r) => r.text);
  expect(await page(ana.client)).toContain(`href="${GROUP}"`);
  expect(await page(ana.client)).toContain("Unirse al grupo de WhatsApp");
  for (const who of [beto.client, ceci.client, new Client(server.url)]) {
    const html = await page(who);
    expect(html).not.toContain("chat.whatsapp.com");
    expect(html).not.toContain("Unirse al grupo");
  }

  // Ana's confirmation leads to the group; Beto's waiting mails do not.
  const anaMails = await mailsOf(ana.user.id);
  const confirmation = anaMails.find((m) => m.subject === "Inscripción confirmada: Club con grupo");
  expect(String(confirmation!.text)).toContain(`Unirse al grupo de WhatsApp: ${GROUP}`);
  expect(String(confirmation!.html)).toContain(`href="${GROUP}"`);
  for (const mail of await mailsOf(beto.user.id)) expect(String(mail.text)).not.toContain(GROUP);
  // Ana leaves: her mail has no group, Beto gets the seat and the group with it.
  await leaveEvent(server.db, ana.user, event.id);
  const left = (await mailsOf(ana.user.id)).find((m) => String(m.subject).startsWith("Dejaste"));
  expect(String(left!.text)).not.toContain(GROUP);
  const seat = (await mailsOf(beto.user.id)).find((m) => String(m.subject).startsWith("¡Tienes"));
  expect(String(seat!.text)).toContain(GROUP);
  expect(await page(beto.client)).toContain(`href="${GROUP}"`);
  expect(await page(ana.client)).not.toContain("chat.whatsapp.com");

  // The reminder carries it too.
  await server.db.delete(mailOutbox);
  expect(
    await queueDueReminders(server.db, new Date(event.startsAt.getTime() - 3_600_000), 24),
  ).toBeGreaterThanOrEqual(1);
  const [reminder] = await mailsOf(beto.user.id);
  expect(String(reminder!.text)).toContain(GROUP);
});

test("a bad group link is refused by the form in Spanish and nothing changes; blank removes it", async () => {
  const event = await createTestEvent(server.db, admin.user, { enlaceGrupo: GROUP });
  const post = (enlaceGrupo: string) =>
    admin.client.post(
      "/admin",
      eventForm("update", {}, [], undefined, { eventId: event.id, enlaceGrupo }),
    );
  for (const bad of [
    "javascript:alert(1)",
    "http://chat.whatsapp.com/AbC",
    "chat.whatsapp.com/AbC",
    "https://",
    `https://chat.whatsapp.com/${"a".repeat(2100)}`,
    "data:text/html,<script>alert(1)</script>",
  ]) {
    const reply = await post(bad);
    expect(reply.status, bad).toBe(400);
    expect(eventFieldError(reply.text, "enlaceGrupo"), bad).toMatch(
      bad.length > 2000 ? /como máximo/ : new RegExp(CHAT_LINK_INVALID.slice(0, 40)),
    );
    const [row] = await server.db.select().from(events).where(eq(events.id, event.id));
    expect(row!.chatLink).toBe(GROUP);
  }
  const telegram = await post("https://t.me/+grupoAyllu");
  expect(telegram.status).toBe(302);
  expect((await server.db.select().from(events).where(eq(events.id, event.id)))[0]!.chatLink).toBe(
    "https://t.me/+grupoAyllu",
  );
  expect((await post("")).status).toBe(302);
  expect(
    (await server.db.select().from(events).where(eq(events.id, event.id)))[0]!.chatLink,
  ).toBeNull();
});

test("a member with a place gets a reminder to send by WhatsApp on the page and the profile, with their code", async () => {
  const event = await createTestEvent(server.db, admin.user, { nombreEvento: "Feria de robots" });
  const ana = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  expect(whatsappTexts((await ana.client.get(`/detalles/${event.id}`)).text)).toHaveLength(1);
  await joinEvent(server.db, ana.user, event.id);
  const page = (await ana.client.get(`/detalles/${event.id}`)).text;
  // Ana's code, as the door knows it: made from the site's secret, her id and the event's.
  const code = formatCheckInCode(checkInCode(server.config.sessionSecret, event.id, ana.user.id));
  expect(page).toContain(code);
  const reminders = whatsappTexts(page).filter((t) => t.startsWith("Recordatorio:"));
  expect(reminders).toHaveLength(1);
  expect(reminders[0]).toContain("Recordatorio: Feria de robots");
  expect(reminders[0]).toContain("viernes, 6 de diciembre de 2030, 7:00");
  expect(reminders[0]).toContain(`Mi código de registro: ${code}`);
  const profile = whatsappTexts((await ana.client.get("/profile")).text);
  expect(profile.filter((t) => t.startsWith("Recordatorio: Feria de robots"))).toHaveLength(1);
});

test("an admin edits a demo event without replacing its picture (the demo's own pictures are valid)", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    imagenEnlace: "/demo/club.svg",
    nombreEvento: "Club demo",
  });
  const reply = await admin.client.post(
    "/admin",
    eventForm(
      "update",
      { imagenEnlace: "/demo/club.svg", nombreEvento: "Club demo, editado" },
      [],
      undefined,
      {
        eventId: event.id,
      },
    ),
  );
  expect(reply.status).toBe(302);
  // Only the demo's folder, only its pictures' names.
  for (const bad of [
    "/demo/../admin.svg",
    "/otra/club.svg",
    "/demo/club.svg.html",
    "/demo/Club.SVG",
  ]) {
    const refused = await admin.client.post(
      "/admin",
      eventForm("update", { imagenEnlace: bad }, [], undefined, { eventId: event.id }),
    );
    expect(refused.status, bad).toBe(400);
  }
  const [row] = await server.db.select().from(events).where(eq(events.id, event.id));
  expect([row!.nombreEvento, row!.imagenEnlace]).toEqual(["Club demo, editado", "/demo/club.svg"]);
});

test("at a paid event the group link waits for the payment: not while pending, yes once confirmed", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Curso pagado con grupo",
    enlaceGrupo: GROUP,
  });
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
  const ana = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  await joinEvent(server.db, ana.user, event.id);
  const page = () => ana.client.get(`/detalles/${event.id}`).then((r) => r.text);
  expect(await page()).not.toContain("chat.whatsapp.com");
  for (const mail of await mailsOf(ana.user.id)) expect(String(mail.text)).not.toContain(GROUP);

  const [payment] = await server.db.select().from(payments).where(eq(payments.eventId, event.id));
  await decidePayment(server.db, admin.user, payment!.id, "confirm");
  expect(await page()).toContain(`href="${GROUP}"`);
  // The mail that says the payment is confirmed leads to the group.
  const confirmed = (await mailsOf(ana.user.id)).filter((m) => String(m.text).includes(GROUP));
  expect(confirmed).toHaveLength(1);
  await server.db.delete(mailOutbox);
  expect(
    await queueDueReminders(server.db, new Date(event.startsAt.getTime() - 3_600_000), 24),
  ).toBeGreaterThanOrEqual(1);
  const [reminder] = await mailsOf(ana.user.id);
  expect(String(reminder!.text)).toContain(GROUP);
});
