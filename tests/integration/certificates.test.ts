// Certificates of attendance (docs/decisions/020-certificates.md): the PDF read back, its font,
// who may have one, and the public page that confirms a code.
import { randomUUID } from "node:crypto";
import { inflateSync } from "node:zlib";
import { and, eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { events, participations, users, type User } from "~/db/schema.server";
import { setCheckedIn } from "~/attendance/attendance.server";
import { checkIn, checkInToken } from "~/attendance/check-in.server";
import {
  CertificateRefusedError,
  certificateFor,
  findCertificate,
  formatCertificateCode,
  parseCertificateCode,
} from "~/attendance/certificate.server";
import { deleteEvent } from "~/events/event-commands.server";
import { deleteAccount } from "~/member-data.server";
import { joinEvent } from "~/events/participation.server";
import { qrModules } from "~/attendance/qr.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent, openForCheckIn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

const BEFORE_EVENTS = new Date("2024-01-01T00:00:00Z");

/** An event of 15 March 2024 at 10:00 in La Paz (over), or of 2031 (to come). */
async function eventOn(when: "past" | "future", name = `Taller de Robótica Ñandú ${randomUUID()}`) {
  return createTestEvent(server.db, admin.user, {
    nombreEvento: name,
    fechaEvento: when === "past" ? "2024-03-15" : "2031-03-15",
    horaEvento: "10:00",
    ubicacionEvento: "Bolivia, Cochabamba",
    ubicacionEspecifica: "Auditorio Ñawpa",
  });
}

/**
 * A member who joined `eventId` before it began and, unless `present` is false, was checked in at
 * the door: the QR code of their pass scanned by an admin.
 */
async function participant(eventId: string, name: string, present = true) {
  const member = await createMember(server, `p-${randomUUID()}@example.com`, name);
  await joinEvent(server.db, member.user, eventId, BEFORE_EVENTS);
  if (present) {
    const secret = server.config.sessionSecret;
    const token = checkInToken(secret, eventId, member.user.id);
    // Scanned as the event began: the door takes the session under way (decision 044), and
    // nobody attends before joining, so the join is dated before the events too.
    await server.db
      .update(participations)
      .set({ joinedAt: BEFORE_EVENTS })
      .where(and(eq(participations.eventId, eventId), eq(participations.userId, member.user.id)));
    const [event] = await server.db
      .select({ startsAt: events.startsAt })
      .from(events)
      .where(eq(events.id, eventId));
    await checkIn(server.db, secret, admin.user, eventId, { token }, event!.startsAt);
  }
  return member;
}

async function codeOf(eventId: string, userId: string): Promise<string> {
  const [row] = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)));
  return row!.code;
}

/** The PDF as sent, for a client with cookies. */
async function download(client: BrowserClient, path: string) {
  const response = await fetch(new URL(path, server.url), {
    headers: { Cookie: client.cookieHeader() },
    redirect: "manual",
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function textOf(bytes: Uint8Array) {
  const pdf = await getDocumentProxy(bytes.slice());
  const page = await pdf.getPage(1);
  const { width, height } = page.getViewport({ scale: 1 });
  const { text, totalPages } = await extractText(pdf, { mergePages: true });
  return { text: text.replace(/\s+/g, " "), totalPages, width, height };
}

/**
 * The QR code drawn on the page, read back from the page's drawing operators: the squares
 * (`x y w w re`) of the content stream that are not the page's bars and frames, each a dark
 * module, placed on the grid of their size.
 */
function qrOf(bytes: Uint8Array): boolean[][] {
  const raw = Buffer.from(bytes).toString("latin1");
  const squares: Array<[number, number, number]> = [];
  for (const stream of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(stream[1]!, "latin1")).toString("latin1");
    } catch {
      continue; // not a compressed stream
    }
    for (const m of content.matchAll(/(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re\b/g)) {
      const [x, y, w, h] = m.slice(1).map(Number) as [number, number, number, number];
      if (w === h && w < 10) squares.push([x, y, w]);
    }
  }
  expect(squares.length).toBeGreaterThan(100);
  const cell = squares[0]![2];
  for (const [, , w] of squares) expect(w).toBe(cell);
  const left = Math.min(...squares.map(([x]) => x));
  const top = Math.min(...squares.map(([, y]) => y));
  const size = Math.round((Math.max(...squares.map(([x]) => x)) - left) / cell) + 1;
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [x, y] of squares)
    grid[Math.round((y - top) / cell)]![Math.round((x - left) / cell)] = true;
  return grid;
}

test("a checked-in participant downloads their certificate after the event: A4 landscape with their name, the event, its date and place, the community and the code", async () => {
  const event = await eventOn("past");
  const ana = await participant(event.id, "Ana Ñusta Quispe Ávila");
  const reply = await download(ana.client, `/detalles/${event.id}/certificado.pdf`);
  expect(reply.response.status).toBe(200);
  expect(reply.response.headers.get("content-type")).toBe("application/pdf");
  expect(reply.response.headers.get("cache-control")).toBe("private, no-store");
  const code = formatCertificateCode(await codeOf(event.id, ana.user.id));
  expect(reply.response.headers.get("content-disposition")).toBe(
    `attachment; filename="certificado-${code}.pdf"`,
  );
  expect(Buffer.from(reply.bytes.subarray(0, 5)).toString()).toBe("%PDF-");

  const { text, totalPages, width, height } = await textOf(reply.bytes);
  expect(totalPages).toBe(1);
  expect([Math.round(width), Math.round(height)]).toEqual([842, 595]);
  // Set in spaced capitals, which text extraction reads letter by letter.
  expect(text.replace(/\s/g, "")).toContain("CERTIFICADODEASISTENCIA");
  expect(text).toContain("Ana Ñusta Quispe Ávila");
  expect(text).toContain(event.nombreEvento);
  expect(text).toContain("15 de marzo de 2024 · Bolivia, Cochabamba — Auditorio Ñawpa");
  expect(text).toContain("Comunidad Ayllu");
  expect(text).toContain(code);
  expect(text).toContain(`${server.url.host}/certificados/${code}`);
  // The QR code is the public page's address on this site.
  expect(qrOf(reply.bytes)).toEqual(qrModules(`${server.url.origin}/certificados/${code}`));
});

test("the certificate embeds Space Grotesk (every font is an embedded subset of it, never a standard PDF font), and a name beyond Latin-1 prints in its extended part", async () => {
  const event = await eventOn("past");
  const name = "Łukasz Ŝtefan Ñuñez";
  const member = await participant(event.id, name);
  const { response, bytes } = await download(
    member.client,
    `/detalles/${event.id}/certificado.pdf`,
  );
  expect(response.status).toBe(200);
  expect((await textOf(bytes)).text).toContain(name);
  // Font dictionaries and descriptors are plain objects in the file (only streams are compressed).
  const raw = Buffer.from(bytes).toString("latin1");
  const baseFonts = [...raw.matchAll(/\/BaseFont \/([^\s/>]+)/g)].map((m) => m[1]!);
  expect(baseFonts.length).toBeGreaterThan(0);
  for (const font of baseFonts)
    expect(font).toMatch(/^[A-Z]{6}\+SpaceGrotesk-(Light|Medium|Bold)$/);
  expect(new Set(baseFonts.map((f) => f.split("+")[1]))).toEqual(
    new Set(["SpaceGrotesk-Light", "SpaceGrotesk-Medium", "SpaceGrotesk-Bold"]),
  );
  const descriptors = [...raw.matchAll(/\/Type \/FontDescriptor[\s\S]*?>>/g)].map((m) => m[0]);
  expect(descriptors.length).toBeGreaterThan(0);
  for (const d of descriptors) expect(d).toMatch(/\/FontFile2 \d+ 0 R/);
  // The two parts of the font the name needs: Latin-1 for "Ñuñez", Latin Extended for "Ł" and "Ŝ".
  expect(descriptors.length).toBeGreaterThan(3);
  expect(raw).not.toMatch(/\/BaseFont \/(Helvetica|Times|Courier)/);
});

test("the code's public page confirms who attended what, when, where and with whom, for anyone", async () => {
  const event = await eventOn("past");
  const ana = await participant(event.id, "José Ñuflo Mamani");
  const code = formatCertificateCode(await codeOf(event.id, ana.user.id));
  const visitor = new BrowserClient(server.url);
  const page = await visitor.get(`/certificados/${code}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain(
    `<h1 id="certificate-title" class="certificate-name">José Ñuflo Mamani</h1>`,
  );
  expect(page.text).toContain(event.nombreEvento);
  expect(page.text).toContain("15 de marzo de 2024");
  expect(page.text).toContain("Bolivia, Cochabamba — Auditorio Ñawpa");
  expect(page.text).toContain("Certificado válido");
  expect(page.text).toContain(
    "Ayllu — Comunidad de robótica y tecnología de código abierto en Bolivia",
  );
  // An event of one session: who gets one reads as before sessions.
  expect(page.text).toContain(
    "Ayllu emite este certificado a quien asistió al evento y fue registrado en la entrada.",
  );
  expect(page.text).toContain(code);
  expect(page.text).toContain(`href="/detalles/${event.id}"`);
  expect(page.text).toContain(
    "<title>Certificado de asistencia de José Ñuflo Mamani — Ayllu</title>",
  );
  expect(page.text).toContain('<meta name="robots" content="noindex"/>');
  expect(page.text).toContain(
    `<link rel="canonical" href="${server.url.origin}/certificados/${code}"/>`,
  );
  // Neither the e-mail nor anything else of the profile.
  expect(page.text).not.toContain(ana.user.email);

  // Typed in small letters, without dashes, or with an O for a zero: the one address of the page.
  for (const typed of [code.toLowerCase(), code.replaceAll("-", ""), code.replaceAll("0", "o")]) {
    const moved = await visitor.get(`/certificados/${typed}`);
    expect(moved.status, typed).toBe(typed === code ? 200 : 301);
    if (typed !== code) expect(pathOf(moved.location)).toBe(`/certificados/${code}`);
  }
});

test("unknown, malformed and not (yet) valid codes are the error page's 404, and nothing is cached", async () => {
  const past = await eventOn("past");
  const future = await eventOn("future");
  const absent = await participant(past.id, "Beto Ausente", false);
  const early = await participant(future.id, "Carla Temprana");
  const visitor = new BrowserClient(server.url);
  for (const code of [
    "ABCD-EFGH-JKMN",
    await codeOf(past.id, absent.user.id),
    await codeOf(future.id, early.user.id),
    "no-es-un-codigo",
    "ABCD-EFGH-JKMU",
    "1%27%20or%201=1",
    "%00",
    encodeURIComponent("ÑÑÑÑ-ÑÑÑÑ-ÑÑÑÑ"),
    "ABCD-EFGH-JKMN-",
    "x".repeat(3000),
  ]) {
    for (let i = 0; i < 2; i++) {
      const reply = await visitor.get(`/certificados/${code}`);
      expect(reply.status, code.slice(0, 20)).toBe(404);
      expect(reply.text).toContain(`<h1 id="error-title">${MESSAGES.certificateNotFound}</h1>`);
      expect(reply.headers.get("etag")).toBeNull();
    }
  }
});

test("deleting the event, or the member's account, withdraws the certificate", async () => {
  const kept = await eventOn("past");
  const dropped = await eventOn("past");
  const ana = await participant(kept.id, "Ana Se Va");
  await joinEvent(server.db, ana.user, dropped.id, BEFORE_EVENTS);
  await setCheckedIn(server.db, admin.user, dropped.id, ana.user.id, true);
  const codes = [await codeOf(kept.id, ana.user.id), await codeOf(dropped.id, ana.user.id)];
  const visitor = new BrowserClient(server.url);
  for (const code of codes)
    expect((await visitor.get(`/certificados/${formatCertificateCode(code)}`)).status).toBe(200);
  // Changed outside the server's requests: on PostgreSQL its page cache hears of it through
  // NOTIFY, a moment later (on the embedded database, before the change returns).
  const statusOf = async (code: string) => {
    const path = `/certificados/${formatCertificateCode(code)}`;
    let status = (await visitor.get(path)).status;
    for (const deadline = Date.now() + 10_000; status === 200 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await visitor.get(path)).status;
    }
    return status;
  };
  await deleteEvent(server.db, admin.user, dropped.id);
  expect(await statusOf(codes[1]!)).toBe(404);
  await deleteAccount(server.db, ana.user);
  expect(await statusOf(codes[0]!)).toBe(404);
});

test("visitors are sent to sign in; members without a certificate are refused with the reason; nobody gets someone else's", async () => {
  const past = await eventOn("past");
  const future = await eventOn("future");
  const ana = await participant(past.id, "Ana Asistente");
  const beto = await participant(past.id, "Beto Inscrito", false);
  const carla = await participant(future.id, "Carla Futura");
  const stranger = await createMember(server);
  const own = (id: string) => `/detalles/${id}/certificado.pdf`;

  const visitor = await new BrowserClient(server.url).get(own(past.id));
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toBe(`/login?redirectTo=${encodeURIComponent(own(past.id))}`);
  expect(visitor.headers.getSetCookie().join()).toContain("ayllu_flash=certificateLoginRequired");

  const refusals: Array<[BrowserClient, string, number, string]> = [
    [stranger.client, own(past.id), 403, MESSAGES.certificateNotParticipant],
    [beto.client, own(past.id), 403, MESSAGES.certificateNotCheckedIn],
    [carla.client, own(future.id), 403, MESSAGES.certificateNotEnded],
    [ana.client, own(future.id), 403, MESSAGES.certificateNotParticipant],
    [ana.client, own(randomUUID()), 404, MESSAGES.eventNotFound],
    [ana.client, own("no-es-un-id"), 404, MESSAGES.eventNotFound],
    [ana.client, own("%00"), 404, MESSAGES.eventNotFound],
  ];
  for (const [client, path, status, message] of refusals) {
    const reply = await client.get(path);
    expect(reply.status, path).toBe(status);
    expect(reply.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(reply.text).toBe(`${message}\n`);
  }

  // The model refuses by itself, whoever calls it: only the member or an admin.
  const refused = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof CertificateRefusedError ? error.message : error),
    );
  expect(await refused(certificateFor(server.db, null, past.id, ana.user.id))).toBe(
    MESSAGES.certificateLoginRequired,
  );
  expect(await refused(certificateFor(server.db, stranger.user, past.id, ana.user.id))).toBe(
    MESSAGES.certificateNotOwn,
  );
  expect(await refused(certificateFor(server.db, beto.user, past.id, ana.user.id))).toBe(
    MESSAGES.certificateNotOwn,
  );
  const mine = await certificateFor(server.db, ana.user, past.id, ana.user.id);
  expect(mine.nombre).toBe("Ana Asistente");
  // The clock decides "ended": the same certificate is not there before the end (start + 2 h),
  // not even while the event is in progress.
  const startsAt = new Date("2024-03-15T14:00:00Z");
  const endsAt = new Date("2024-03-15T16:00:00Z");
  for (const at of [
    startsAt.getTime() - 60_000,
    startsAt.getTime() + 60_000,
    endsAt.getTime() - 1,
  ]) {
    expect(
      await refused(certificateFor(server.db, ana.user, past.id, ana.user.id, new Date(at))),
    ).toBe(MESSAGES.certificateNotEnded);
    expect(await findCertificate(server.db, mine.code, new Date(at))).toBeNull();
  }
  expect((await certificateFor(server.db, ana.user, past.id, ana.user.id, endsAt)).code).toBe(
    mine.code,
  );
  expect((await findCertificate(server.db, mine.code, endsAt))?.nombre).toBe("Ana Asistente");
});

test("an admin downloads any checked-in participant's certificate from the participants page; members and visitors cannot", async () => {
  const past = await eventOn("past");
  const ana = await participant(past.id, "Ana Presente");
  const beto = await participant(past.id, "Beto Ausente", false);
  const member = await createMember(server);
  const forAdmin = (userId: string) =>
    `/admin/eventos/${past.id}/participantes/${userId}/certificado.pdf`;

  const list = await admin.client.get(`/admin/eventos/${past.id}/participantes`);
  expect(list.text).toContain(`href="${forAdmin(ana.user.id)}"`);
  expect(list.text).not.toContain(`href="${forAdmin(beto.user.id)}"`);

  const pdf = await download(admin.client, forAdmin(ana.user.id));
  expect(pdf.response.status).toBe(200);
  expect((await textOf(pdf.bytes)).text).toContain("Ana Presente");

  for (const [userId, status, message] of [
    [beto.user.id, 403, MESSAGES.certificateNotCheckedIn],
    [member.user.id, 404, MESSAGES.participantNotFound],
    [randomUUID(), 404, MESSAGES.participantNotFound],
    ["no-es-un-id", 404, MESSAGES.participantNotFound],
  ] as const) {
    const reply = await admin.client.get(forAdmin(userId));
    expect(reply.status, userId).toBe(status);
    expect(reply.text).toBe(`${message}\n`);
  }
  const unknownEvent = await admin.client.get(
    `/admin/eventos/${randomUUID()}/participantes/${ana.user.id}/certificado.pdf`,
  );
  expect(unknownEvent.status).toBe(404);

  const asMember = await member.client.get(forAdmin(ana.user.id));
  expect(asMember.status).toBe(302);
  expect(pathOf(asMember.location)).toBe("/inicio");
  const asParticipant = await ana.client.get(forAdmin(ana.user.id));
  expect(asParticipant.status).toBe(302);
  expect(pathOf(asParticipant.location)).toBe("/inicio");
  const asVisitor = await new BrowserClient(server.url).get(forAdmin(ana.user.id));
  expect(asVisitor.status).toBe(302);
  expect(pathOf(asVisitor.location)).toMatch(/^\/login/);
});

test("'Descargar certificado' is on the profile's history and the event page only for a checked-in participant of an ended event", async () => {
  const past = await eventOn("past");
  const registered = await eventOn("past");
  const future = await eventOn("future");
  const member = await participant(past.id, "Dora Historia");
  await joinEvent(server.db, member.user, registered.id, BEFORE_EVENTS);
  await joinEvent(server.db, member.user, future.id);
  await openForCheckIn(server.db, future.id);
  await setCheckedIn(server.db, admin.user, future.id, member.user.id, true);
  const link = (id: string) => `href="/detalles/${id}/certificado.pdf"`;

  const profile = await member.client.get("/profile");
  expect(profile.text).toContain(link(past.id));
  expect(profile.text).toContain(`aria-label="Descargar certificado de ${past.nombreEvento}"`);
  expect(profile.text).not.toContain(link(registered.id));
  expect(profile.text).not.toContain(link(future.id));

  const pastPage = (await member.client.get(`/detalles/${past.id}`)).text;
  expect(pastPage).toContain(link(past.id));
  // The certificate is the page's one call to action: first, and 'Evento Finalizado' a quiet state.
  expect(pastPage.indexOf(link(past.id))).toBeLessThan(pastPage.indexOf("Evento Finalizado"));
  expect(pastPage).toMatch(/class="button button-ghost" disabled="">Evento Finalizado</);
  expect((await member.client.get(`/detalles/${registered.id}`)).text).not.toContain(
    link(registered.id),
  );
  expect((await member.client.get(`/detalles/${future.id}`)).text).not.toContain(link(future.id));
  expect((await new BrowserClient(server.url).get(`/detalles/${past.id}`)).text).not.toContain(
    "Descargar certificado",
  );

  // The member's own data says which code is theirs.
  const data = JSON.parse((await member.client.get("/profile/datos")).text);
  expect(
    data.participaciones.find((p: { eventId: string }) => p.eventId === past.id),
  ).toMatchObject({
    certificateCode: await codeOf(past.id, member.user.id),
  });
});

test("every participation gets its own code of 12 characters, made by the database and never changed", async () => {
  const event = await eventOn("past");
  const ids = await server.db
    .insert(users)
    .values(
      Array.from({ length: 300 }, (_, i) => ({
        issuer: "https://prueba.example",
        subject: `codigo-${randomUUID()}-${i}`,
        email: `codigo-${i}-${randomUUID()}@example.com`,
      })),
    )
    .returning({ id: users.id });
  await server.db
    .insert(participations)
    .values(ids.map(({ id }) => ({ userId: id, eventId: event.id, joinedAt: BEFORE_EVENTS })));
  const codes = await server.db
    .select({ code: participations.certificateCode })
    .from(participations)
    .where(eq(participations.eventId, event.id));
  expect(codes).toHaveLength(300);
  for (const { code } of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{12}$/);
  expect(new Set(codes.map((c) => c.code)).size).toBe(300);
  // Every character of the alphabet turns up: the code is not drawn from a narrower source.
  expect(new Set(codes.flatMap((c) => [...c.code])).size).toBe(32);

  // A check-in (and undoing it) keeps the code.
  const first = ids[0]!.id;
  const before = await codeOf(event.id, first);
  await setCheckedIn(server.db, admin.user, event.id, first, true);
  await setCheckedIn(server.db, admin.user, event.id, first, false);
  expect(await codeOf(event.id, first)).toBe(before);
  // The database refuses a code of another shape.
  await expect(
    server.db.execute(
      sql`update participations set certificate_code = 'abc' where user_id = ${first}`,
    ),
  ).rejects.toThrow();
});

test("a code is read as people type it: small letters, spaces, dashes, O for zero, I and L for one", () => {
  expect(parseCertificateCode("abcd-efgh-jkmn")).toBe("ABCDEFGHJKMN");
  expect(parseCertificateCode(" 0O1I L234 5678 9")).toBeNull();
  expect(parseCertificateCode("OOIL-2345-6789")).toBe("0011-2345-6789".replaceAll("-", ""));
  expect(parseCertificateCode("ABCD-EFGH-JKMU")).toBeNull();
  expect(parseCertificateCode("ABCD-EFGH-JKM")).toBeNull();
  expect(parseCertificateCode(12)).toBeNull();
  expect(parseCertificateCode(undefined)).toBeNull();
  expect(parseCertificateCode("A".repeat(41))).toBeNull();
  expect(formatCertificateCode("ABCDEFGHJKMN")).toBe("ABCD-EFGH-JKMN");
});
