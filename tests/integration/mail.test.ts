// Mail that arrives (docs/decisions/021-mail.md): each cause queues its mail in its own
// transaction, and the worker delivers it to a real SMTP server on loopback, with its headers and
// the event's .ics; an outage, a refusal, a crash in the middle of a send and two workers racing
// lose nothing and send nothing twice; reminders go by an injected clock, once.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { EventSchema } from "~/events/schemas";
import { mailOutbox, participations, users, type User } from "~/db/schema.server";
import { composeMail, type MailSite } from "~/mail/compose.server";
import {
  createMailWorker,
  mailboxTransport,
  smtpTransport,
  type MailTransport,
} from "~/mail/worker.server";
import { deleteEvent, updateEvent } from "~/events/event-commands.server";
import {
  queueDueReminders,
  queueParticipantsMessage,
  saveMailPreferences,
} from "~/mail/mail.server";
import { EventEndedError, joinEvent, leaveEvent } from "~/events/participation.server";
import { completeProfile } from "~/members/user.server";
import { failOnConsoleError } from "../helpers/console";
import { createTestDatabase, type TestDatabase } from "../helpers/database";
import { VALID_EVENT, createTestEvent } from "../helpers/events";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";
import { MAIL_DRAFTS } from "~/mail-drafts.server";

let database: TestDatabase;
let smtp: TestSmtp;
let admin: User;

const SITE: MailSite = {
  origin: "https://ayllu.example",
  hostname: "ayllu.example",
  from: "Ayllu <eventos@ayllu.example>",
  timeZone: "America/La_Paz",
};
const HOUR = 60 * 60_000;

beforeAll(async () => {
  [database, smtp] = await Promise.all([createTestDatabase(), startTestSmtp()]);
  const [jefa] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `admin-${randomUUID()}`,
      email: "jefa@example.com",
      nombreCompleto: "Jefa Admin",
      isAdmin: true,
    })
    .returning();
  admin = jefa!;
});
afterAll(async () => {
  await smtp?.close();
  await database?.close();
});

beforeEach(async () => {
  await database.db.delete(mailOutbox);
  smtp.received.length = 0;
  smtp.mode = "accept";
});

failOnConsoleError();

async function newMember(name = "Ana Quispe"): Promise<User> {
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `m-${randomUUID()}`,
      email: `m-${randomUUID()}@example.com`,
      nombreCompleto: name,
    })
    .returning();
  return user!;
}

/** A worker on the test database; the clock and the transport are the test's. */
function worker(
  options: { now?: () => Date; transport?: MailTransport; backoffMs?: () => number } = {},
) {
  return createMailWorker({
    drafts: MAIL_DRAFTS,
    db: database.db,
    site: SITE,
    transport: options.transport ?? smtpTransport(smtp.url),
    reminderHours: 24,
    now: options.now,
    backoffMs: options.backoffMs,
  });
}

async function outbox() {
  return database.db
    .select()
    .from(mailOutbox)
    .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id));
}

/** A header as it was sent (its value after the name), unfolded. */
function header(mail: ParsedMail, name: string): string {
  const line = mail.headerLines.find((h) => h.key === name)?.line ?? "";
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim();
}

test("joining queues the confirmation with the join; the worker delivers it with its headers, text, HTML and the .ics", async () => {
  const event = await createTestEvent(database.db, admin, { nombreEvento: "Taller de Micromouse" });
  const member = await newMember("Ana Quispe");
  await joinEvent(database.db, member, event.id);

  const [queued] = await outbox();
  expect(queued).toMatchObject({ kind: "joined", userId: member.id, status: "pending" });

  expect(await worker().runOnce()).toMatchObject({ sent: 1, retried: 0, failed: 0 });
  const [mail] = await smtp.waitFor(1);
  expect(mail!.from?.text).toBe('"Ayllu" <eventos@ayllu.example>');
  expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.value[0] : null).toEqual({
    address: member.email,
    name: "Ana Quispe",
  });
  expect(mail!.subject).toBe("Inscripción confirmada: Taller de Micromouse");
  expect(mail!.messageId).toBe(`<${queued!.id}@ayllu.example>`);
  const unsubscribe = `${SITE.origin}/correo/baja/${member.mailToken}/participacion`;
  expect(header(mail!, "list-unsubscribe")).toContain(unsubscribe);
  expect(header(mail!, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  expect(mail!.text).toContain("Hola, Ana Quispe:");
  expect(mail!.text).toContain("Tu inscripción en «Taller de Micromouse» está confirmada.");
  expect(mail!.text).toContain(`${SITE.origin}/detalles/${event.id}`);
  expect(mail!.text).toContain(unsubscribe);
  expect(mail!.html).toContain("Taller de Micromouse");
  expect(mail!.attachments).toHaveLength(1);
  const ics = mail!.attachments[0]!;
  expect(ics.filename).toBe("evento.ics");
  expect(ics.contentType).toBe("text/calendar");
  expect(ics.content.toString()).toContain("SUMMARY:Taller de Micromouse");
  expect(ics.content.toString()).toContain(`UID:${event.id}@ayllu.example`);
  expect((await outbox())[0]).toMatchObject({ status: "sent", attempts: 1, claimId: null });
});

test("nothing said by a member's own text reaches the HTML as markup", async () => {
  const event = await createTestEvent(database.db, admin, { nombreEvento: "<b>Sumo</b> & co" });
  const member = await newMember('<img src=x onerror="alert(1)">');
  await joinEvent(database.db, member, event.id);
  const [row] = await outbox();
  const message = composeMail(
    {
      ...row!,
      kind: "joined",
      data: row!.data as never,
      email: member.email,
      name: member.nombreCompleto!,
      mailToken: member.mailToken,
    },
    SITE,
    MAIL_DRAFTS,
  );
  // The one picture is the site's logo in the band; the member's name stays text.
  expect(String(message.html).match(/<img /g)).toHaveLength(1);
  expect(String(message.html)).not.toContain("<img src=x");
  expect(String(message.html)).toContain("&lt;img src=x");
  expect(String(message.html)).not.toContain("<b>Sumo");
  expect(String(message.html)).toContain("&lt;b&gt;Sumo&lt;/b&gt; &amp; co");
});

test("a join that is refused queues nothing; joining a full event's waiting list is told; leaving queues the goodbye and the seat for the first waiting, together", async () => {
  const ended = await createTestEvent(database.db, admin, { fechaEvento: "2020-01-01" });
  const member = await newMember();
  await expect(joinEvent(database.db, member, ended.id)).rejects.toBeInstanceOf(EventEndedError);
  expect(await outbox()).toEqual([]);

  const full = await createTestEvent(database.db, admin, { capacity: "1" });
  const [first, second] = [await newMember("Primera"), await newMember("Segunda")];
  await joinEvent(database.db, first, full.id);
  expect(await joinEvent(database.db, second, full.id)).toBe("waiting");
  await leaveEvent(database.db, first, full.id);
  const rows = await outbox();
  // One transaction: the goodbye and the seat share its time, so they are compared in any order.
  expect(rows.map((r) => [r.kind, r.userId]).sort()).toEqual([
    ["joined", first.id],
    ["left", first.id],
    ["seat", second.id],
    // Joining the waiting list is told too (issue 35).
    ["waitlistJoined", second.id],
  ]);
  await worker().runOnce();
  const mails = await smtp.waitFor(4);
  const waiting = mails.find((m) => m.subject?.startsWith("Estás en la lista de espera"))!;
  expect(waiting.text).toContain("está lleno y quedaste en su lista de espera");
  expect(header(waiting, "list-unsubscribe")).toContain(`/correo/baja/${second.mailToken}/plazas`);
  const seat = mails.find((m) => m.subject?.startsWith("¡Tienes una plaza!"))!;
  expect(seat.text).toContain("es tuya: ya estás inscrito");
  const left = mails.find((m) => m.subject?.startsWith("Dejaste de participar"))!;
  // The goodbye's .ics takes the event out of the member's calendar.
  expect(left.attachments[0]!.content.toString()).toContain("METHOD:CANCEL");
});

test("an event moved or deleted is told to participants and those waiting; a deleted one cancels in the calendar", async () => {
  const event = await createTestEvent(database.db, admin, { capacity: "1", horaEvento: "19:00" });
  const [seated, waiting, away] = [await newMember(), await newMember(), await newMember()];
  await joinEvent(database.db, seated, event.id);
  await joinEvent(database.db, waiting, event.id);
  await saveMailPreferences(database.db, away, []);
  await joinEvent(database.db, away, event.id);
  await database.db.delete(mailOutbox);

  // A new description alone is no news; a new time is.
  const input = (overrides: Record<string, string>) =>
    EventSchema.parse({ ...VALID_EVENT, capacity: "1", ...overrides, enlacesVirtuales: [] });
  await updateEvent(database.db, admin, event.id, input({ descripcion: "Otra" }), "America/La_Paz");
  expect(await outbox()).toEqual([]);
  await updateEvent(database.db, admin, event.id, input({ horaEvento: "20:30" }), "America/La_Paz");
  expect((await outbox()).map((r) => [r.kind, r.userId]).sort()).toEqual(
    [
      ["changed", seated.id],
      ["changed", waiting.id],
    ].sort(),
  );
  await worker().runOnce();
  const [changed] = await smtp.waitFor(2);
  expect(changed!.subject).toContain("Cambió el evento");
  expect(changed!.text).toMatch(/Antes: .*7:00/);
  expect(changed!.text).toMatch(/Cuándo: .*8:30/);

  smtp.received.length = 0;
  await database.db.delete(mailOutbox);
  await deleteEvent(database.db, admin, event.id);
  expect((await outbox()).map((r) => r.kind)).toEqual(["deleted", "deleted"]);
  await worker().runOnce();
  const [deleted] = await smtp.waitFor(2);
  expect(deleted!.subject).toBe(`Evento cancelado: ${VALID_EVENT.nombreEvento}`);
  const ics = deleted!.attachments[0]!.content.toString();
  expect(ics).toContain("METHOD:CANCEL");
  expect(ics).toContain("STATUS:CANCELLED");
});

test("the welcome comes once, when the profile is first completed", async () => {
  const [newcomer] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: `n-${randomUUID()}`,
      email: "nuevo@example.com",
    })
    .returning();
  const profile = {
    nombreCompleto: "Persona Nueva",
    fechaNacimiento: "1990-05-17",
    pais: "Bolivia",
    ciudad: "El Alto",
    genero: "Otro" as const,
    habilidades: "",
  };
  await completeProfile(database.db, newcomer!.id, profile);
  await completeProfile(database.db, newcomer!.id, { ...profile, ciudad: "La Paz" });
  expect((await outbox()).map((r) => r.kind)).toEqual(["welcome"]);
  await worker().runOnce();
  const [welcome] = await smtp.waitFor(1);
  expect(welcome!.subject).toBe("Te damos la bienvenida a Ayllu");
  // The site's tagline inside the sentence, not left dangling after it.
  expect(welcome!.text).toContain(
    "Tu perfil está completo: ya eres parte de Ayllu, comunidad de robótica y tecnología de código abierto en Bolivia.",
  );
  // The band carries the logo (a PNG the site serves: mail programs show no SVG), and the button
  // is the site's own: its accent and the dark text on it (app/styles/tokens.css).
  const html = String(welcome!.html);
  const logo = html.match(/<img src="([^"]+)"/)?.[1];
  expect(logo).toBe(`${SITE.origin}/icons/logo-96.png`);
  expect(existsSync(join(import.meta.dirname, "../../public/icons/logo-96.png"))).toBe(true);
  const tokens = readFileSync(join(import.meta.dirname, "../../app/styles/tokens.css"), "utf8");
  const token = (name: string) => tokens.match(new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`))?.[1];
  const button = html.match(/<a href="[^"]*\/eventos" style="([^"]+)"/)?.[1] ?? "";
  expect(button).toContain(`background:${token("color-accent")}`);
  expect(button).toContain(`color:${token("color-on-accent")}`);
  expect(welcome!.attachments).toEqual([]);
  expect(header(welcome!, "list-unsubscribe")).toContain(
    `/correo/baja/${newcomer!.mailToken}/todos`,
  );
});

test("an SMTP outage loses nothing: the mail waits, with backoff, and goes once when the server is back", async () => {
  const event = await createTestEvent(database.db, admin);
  await joinEvent(database.db, await newMember(), event.id);
  let now = new Date(Date.now() + 1000);
  const clock = () => now;
  const down = worker({
    now: clock,
    // Nothing listens on port 9 of loopback (discard, never run here): the connection is refused.
    transport: smtpTransport("smtp://127.0.0.1:9"),
    backoffMs: () => 10 * 60_000,
  });
  expect(await down.runOnce()).toMatchObject({ sent: 0, retried: 1 });
  const [waiting] = await outbox();
  expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
  expect(waiting!.lastError).toBeTruthy();
  expect(waiting!.nextAttemptAt.getTime()).toBe(now.getTime() + 10 * 60_000);

  // The server refuses for a while (451): still waiting, never given up.
  smtp.mode = "reject-temporarily";
  const up = worker({ now: clock, backoffMs: () => 10 * 60_000 });
  expect(await up.runOnce()).toMatchObject({ sent: 0, retried: 0 }); // not due yet
  now = new Date(now.getTime() + 10 * 60_000);
  expect(await up.runOnce()).toMatchObject({ retried: 1 });
  expect((await outbox())[0]).toMatchObject({ status: "pending", attempts: 2 });

  smtp.mode = "accept";
  now = new Date(now.getTime() + 10 * 60_000);
  expect(await up.runOnce()).toMatchObject({ sent: 1 });
  expect(await up.runOnce()).toMatchObject({ sent: 0 });
  expect(await smtp.waitFor(1)).toHaveLength(1);
  expect((await outbox())[0]).toMatchObject({ status: "sent", attempts: 3, lastError: null });
});

test("a permanent refusal (5xx) is given up at once, not retried", async () => {
  const event = await createTestEvent(database.db, admin);
  await joinEvent(database.db, await newMember(), event.id);
  smtp.mode = "reject-permanently";
  expect(await worker().runOnce()).toMatchObject({ failed: 1 });
  const [row] = await outbox();
  expect(row).toMatchObject({ status: "failed", attempts: 1 });
  expect(row!.lastError).toContain("550");
});

test("a crash in the middle of a send loses nothing and doubles nothing: the claim lapses and another worker sends it once", async () => {
  const event = await createTestEvent(database.db, admin);
  await joinEvent(database.db, await newMember(), event.id);
  const start = new Date(Date.now() + 1000);
  smtp.mode = "hold";
  // The first process takes the mail and is stopped in the middle of the SMTP conversation,
  // before the server accepted it: for the database it has vanished.
  const crashed = worker({ now: () => start }).runOnce();
  await smtp.held();
  const [taken] = await outbox();
  expect(taken).toMatchObject({ status: "sending", attempts: 1 });

  // Another process, while the claim lasts, does not touch it…
  smtp.mode = "accept";
  expect(await worker({ now: () => start }).runOnce()).toMatchObject({ sent: 0 });
  // …and once it lapses, sends it.
  const later = new Date(start.getTime() + 6 * 60_000);
  expect(await worker({ now: () => later }).runOnce()).toMatchObject({ sent: 1 });
  expect((await outbox())[0]).toMatchObject({ status: "sent", attempts: 2 });

  // What the vanished process had started never completes, and its late answer changes nothing.
  smtp.release();
  await crashed;
  expect((await outbox())[0]).toMatchObject({ status: "sent" });
  expect(smtp.received).toHaveLength(1);
});

test("a process stopping in the middle of a send cancels it and puts its mails back; each is sent once, later", async () => {
  const event = await createTestEvent(database.db, admin);
  await joinEvent(database.db, await newMember(), event.id);
  await joinEvent(database.db, await newMember(), event.id);
  const start = new Date(Date.now() + 1000);
  smtp.mode = "hold";
  const stopping = worker({ now: () => start, backoffMs: () => 60_000 });
  const run = stopping.runOnce();
  await smtp.held();
  // SIGTERM: the server stops its worker before it closes the database.
  await stopping.stop();
  await run;
  // The one being sent waits its backoff; the other one of the claim, never tried, is free again.
  expect((await outbox()).map((r) => [r.status, r.attempts]).sort()).toEqual([
    ["pending", 0],
    ["pending", 1],
  ]);
  smtp.release();

  smtp.mode = "accept";
  const later = new Date(start.getTime() + 60_000);
  expect(await worker({ now: () => later }).runOnce()).toMatchObject({ sent: 2 });
  const received = await smtp.waitFor(2);
  expect(new Set(received.map((m) => m.messageId)).size).toBe(2);
  expect((await outbox()).every((r) => r.status === "sent")).toBe(true);
});

test("two workers racing over the same queue send every mail exactly once", async () => {
  const event = await createTestEvent(database.db, admin);
  const members = await database.db
    .insert(users)
    .values(
      Array.from({ length: 30 }, (_, i) => ({
        issuer: "https://test.invalid",
        subject: `r-${randomUUID()}`,
        email: `r-${i}-${randomUUID()}@example.com`,
        nombreCompleto: `Carrera ${i}`,
      })),
    )
    .returning();
  await database.db
    .insert(participations)
    .values(members.map((m) => ({ userId: m.id, eventId: event.id })));
  const { queued } = await queueParticipantsMessage(database.db, admin, event.id, {
    asunto: "Traigan su robot",
    mensaje: "Nos vemos el sábado.\nLleven baterías.",
    incluirEspera: false,
  });
  expect(queued).toBe(30);
  const reports = await Promise.all([worker().runOnce(), worker().runOnce()]);
  expect(reports[0]!.sent + reports[1]!.sent).toBe(30);
  const received = await smtp.waitFor(30);
  expect(new Set(received.map((m) => m.messageId)).size).toBe(30);
  expect(received).toHaveLength(30);
  expect(received[0]!.subject).toBe("Traigan su robot");
  expect(received[0]!.text).toContain("Nos vemos el sábado.\nLleven baterías.");
  expect((await outbox()).every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
});

test("reminders go by the clock: REMINDER_HOURS before the event, once per participant and event, never to who turned them off", async () => {
  const event = await createTestEvent(database.db, admin, {
    fechaEvento: "2031-03-10",
    horaEvento: "18:00",
  });
  const [ana, beto] = [await newMember("Ana"), await newMember("Beto")];
  await joinEvent(database.db, ana, event.id);
  await joinEvent(database.db, beto, event.id);
  await saveMailPreferences(database.db, beto, ["participacion", "plazas", "cambios", "mensajes"]);
  await database.db.delete(mailOutbox);
  const startsAt = event.startsAt.getTime();

  expect(await worker({ now: () => new Date(startsAt - 25 * HOUR) }).runOnce()).toMatchObject({
    reminders: 0,
  });
  const inWindow = () => new Date(startsAt - 23 * HOUR);
  const reports = await Promise.all([
    worker({ now: inWindow }).runOnce(),
    worker({ now: inWindow }).runOnce(),
  ]);
  expect(reports[0]!.reminders + reports[1]!.reminders).toBe(1);
  expect(await worker({ now: () => new Date(startsAt - HOUR) }).runOnce()).toMatchObject({
    reminders: 0,
  });
  const [reminder] = await smtp.waitFor(1);
  expect(smtp.received).toHaveLength(1);
  expect(reminder!.subject).toBe(`Recordatorio: ${VALID_EVENT.nombreEvento}`);
  expect(reminder!.to && !Array.isArray(reminder!.to) ? reminder!.to.value[0]!.address : null).toBe(
    ana.email,
  );
  expect(reminder!.attachments[0]!.content.toString()).toContain("METHOD:PUBLISH");

  // Moved a day later: reminded again for the new time; after the start, never.
  const input = EventSchema.parse({
    ...VALID_EVENT,
    fechaEvento: "2031-03-11",
    horaEvento: "18:00",
    enlacesVirtuales: [],
  });
  await updateEvent(database.db, admin, event.id, input, "America/La_Paz");
  const moved = startsAt + 24 * HOUR;
  expect(await worker({ now: () => new Date(moved - 2 * HOUR) }).runOnce()).toMatchObject({
    reminders: 1,
  });
  expect(await worker({ now: () => new Date(moved + HOUR) }).runOnce()).toMatchObject({
    reminders: 0,
  });
});

test("a member who turned a topic off gets none of it, and the queue holds no row for them", async () => {
  const event = await createTestEvent(database.db, admin);
  const member = await newMember();
  await saveMailPreferences(database.db, member, ["recordatorios"]);
  await joinEvent(database.db, member, event.id);
  expect(await outbox()).toEqual([]);
  const [after] = await database.db.select().from(users).where(eq(users.id, member.id));
  expect(after!.mailOff).toEqual(["participacion", "plazas", "cambios", "mensajes"]);
});

test("the development mailbox transport builds the message and keeps it as sent", async () => {
  const event = await createTestEvent(database.db, admin);
  await joinEvent(database.db, await newMember(), event.id);
  expect(await worker({ transport: mailboxTransport() }).runOnce()).toMatchObject({ sent: 1 });
  expect((await outbox())[0]!.status).toBe("sent");
  expect(smtp.received).toEqual([]);
});

test("a reminder whose event already started is given up, and mail older than 72 hours is not sent", async () => {
  const event = await createTestEvent(database.db, admin, { fechaEvento: "2031-04-10" });
  await joinEvent(database.db, await newMember(), event.id);
  await database.db.execute(sql`update mail_outbox set created_at = now() - interval '73 hours'`);
  expect(await worker().runOnce()).toMatchObject({ failed: 1, sent: 0 });
  expect((await outbox())[0]!.lastError).toContain("Caducado");

  await database.db.delete(mailOutbox);
  const startsAt = event.startsAt.getTime();
  expect(await queueDueReminders(database.db, new Date(startsAt - HOUR), 24)).toBe(1);
  // The server was down until after the start: the reminder would come too late.
  expect(await worker({ now: () => new Date(startsAt + HOUR) }).runOnce()).toMatchObject({
    failed: 1,
  });
  expect((await outbox())[0]!.lastError).toContain("ya empezó");
  expect(smtp.received).toEqual([]);
});

test("a run with nothing to queue wakes nobody: only a queued mail notifies the workers", async () => {
  const event = await createTestEvent(database.db, admin, { fechaEvento: "2031-05-10" });
  const member = await newMember();
  await joinEvent(database.db, member, event.id);
  const inWindow = () => new Date(event.startsAt.getTime() - HOUR);
  expect(await worker({ now: inWindow }).runOnce()).toMatchObject({ reminders: 1 });
  let notified = 0;
  let heard: () => void = () => {};
  const stop = await database.listen("ayllu_mail", () => {
    notified++;
    heard();
  });
  try {
    // Reminded already, nothing sent or due: this run must not wake every worker again.
    expect(await worker({ now: inWindow }).runOnce()).toMatchObject({ reminders: 0, sent: 0 });
    // Notifications arrive in commit order: once this one is heard, an earlier one would have been.
    const arrived = new Promise<void>((resolve) => (heard = resolve));
    await joinEvent(database.db, await newMember(), event.id);
    await arrived;
    expect(notified).toBe(1);
  } finally {
    await stop();
  }
});

test("a statement that queues nothing wakes no worker: a run with nothing due does not start the next", async () => {
  // The worker queues due reminders on every run; had that empty insert announced mail, each run
  // would wake the next, for ever, and starve the server.
  const heard: string[] = [];
  let marked!: () => void;
  const mark = new Promise<void>((resolve) => (marked = resolve));
  const unlisten = await database.listen("ayllu_mail", (payload) => {
    heard.push(payload);
    if (payload === "marca") marked();
  });
  try {
    expect(await queueDueReminders(database.db, new Date(), 24)).toBe(0);
    // Notifications arrive in the order their transactions committed: once the mark is heard,
    // one from the empty insert would have been heard before it.
    await database.db.execute(sql`select pg_notify('ayllu_mail', 'marca')`);
    await mark;
    expect(heard).toEqual(["marca"]);
  } finally {
    await unlisten();
  }
});
