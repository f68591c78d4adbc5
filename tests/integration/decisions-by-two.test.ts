// Issue 52, point 4 (decision 064): two people deciding the same thing never overwrite each other
// silently. Each decision's form names what its screen showed (`visto`); a decision over anything
// else is a conflict the second person reads, nothing changes and no second mail goes. Treasurers
// on one receipt, organisers on one team, organisers reopening results made final again, admins
// granting and taking back roles and the admin permission. Each is also raced: two requests sent
// at once, six rounds; on PostgreSQL they run in two transactions on two connections, the way two
// worker processes would.
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  competitionCategories,
  competitionTeams,
  events,
  mailOutbox,
  payments,
  roleGrants,
  users,
} from "~/db/schema.server";
import { finalChangedMeanwhile, JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { teamChangedMeanwhile, TEAM_MESSAGES } from "~/competitions/teams";
import { joinEvent } from "~/events/participation.server";
import { MEMBER_MESSAGES } from "~/members/messages";
import { grantRole } from "~/members/roles.server";
import { ROLE_NOT_SEEN } from "~/members/roles";
import { PAYMENT_MESSAGES } from "~/payments/messages";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = Awaited<ReturnType<typeof createMember>>;
let admin: Person;
let otherAdmin: Person;
let treasurers: [Person, Person];

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  otherAdmin = await createMember(server, `admin2-${randomUUID()}@example.com`, "Otra Admin");
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, otherAdmin.user.id));
  const made: Person[] = [];
  for (const name of ["Tesorera Tica", "Tesorero Toño"]) {
    const t = await createMember(server, `${randomUUID()}@example.com`, name);
    await grantRole(server.db, admin.user, { userId: t.user.id, kind: "treasurer" });
    made.push(t);
  }
  treasurers = [made[0]!, made[1]!];
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const ROUNDS = 6;
const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&quot;", '"');

/** A member whose transfer waits for treasury, at an event of its own. */
async function receiptToDecide() {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-08-08" });
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
  const member = await createMember(server, `${randomUUID()}@example.com`, "Ana Paga");
  await joinEvent(server.db, member.user, event.id);
  const sent = await member.client.post(`/detalles/${event.id}/pago`, {
    intent: "transaction",
    transactionNumber: "TRX-0001",
  });
  expect(sent.status).toBe(302);
  const [payment] = await server.db.select().from(payments).where(eq(payments.eventId, event.id));
  return { member, payment: payment! };
}

const decisionMails = (userId: string) =>
  server.db
    .select({ kind: mailOutbox.kind })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.userId, userId),
        inArray(mailOutbox.kind, ["paymentConfirmed", "paymentRefused"]),
      ),
    );

const decide = (who: Person, fields: Record<string, string>) =>
  who.client.post("/tesoreria/pagos?ver=revisar", fields);

test("a treasurer's decision over a receipt another decided meanwhile is a conflict shown to them: the first stands, the member gets one mail", async () => {
  const { member, payment } = await receiptToDecide();
  const [tica, tono] = treasurers;
  const refused = await decide(tica, {
    intent: "refuse",
    paymentId: payment.id,
    motivo: "El monto no coincide",
    visto: "submitted",
  });
  expect(refused.status).toBe(302);
  // Toño's screen still showed it 'Por revisar'.
  const late = await decide(tono, { intent: "confirm", paymentId: payment.id, visto: "submitted" });
  expect(late.status).toBe(409);
  expect(text(late.text)).toContain(
    "Otra persona de tesorería decidió este pago mientras lo mirabas: ahora está «Rechazado» (Tesorera Tica)",
  );
  const [row] = await server.db.select().from(payments).where(eq(payments.id, payment.id));
  expect(row!.status).toBe("refused");
  expect(row!.refusalReason).toBe("El monto no coincide");
  expect(await decisionMails(member.user.id)).toEqual([{ kind: "paymentRefused" }]);
  // Confirming what the screen showed refused is a decision of its own, and is taken.
  const meant = await decide(tono, { intent: "confirm", paymentId: payment.id, visto: "refused" });
  expect(meant.status).toBe(302);
  // A form that does not say what it showed is refused, and changes nothing.
  const { payment: other } = await receiptToDecide();
  for (const visto of [undefined, "", "aprobado", "submitted\u200b"]) {
    const fields: Record<string, string> = { intent: "confirm", paymentId: other.id };
    if (visto !== undefined) fields.visto = visto;
    const reply = await decide(tica, fields);
    expect(reply.status, String(visto)).toBe(400);
    expect(text(reply.text)).toContain(PAYMENT_MESSAGES.seenMissing);
  }
  const [still] = await server.db.select().from(payments).where(eq(payments.id, other.id));
  expect(still!.status).toBe("submitted");
});

test("two treasurers deciding one receipt at the same moment: one decision is taken, the other is told, one mail", async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const { member, payment } = await receiptToDecide();
    const [tica, tono] = treasurers;
    const replies = await Promise.all([
      decide(tica, {
        intent: "refuse",
        paymentId: payment.id,
        motivo: "Comprobante ilegible",
        visto: "submitted",
      }),
      decide(tono, { intent: "confirm", paymentId: payment.id, visto: "submitted" }),
    ]);
    expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([302, 409]);
    const [row] = await server.db.select().from(payments).where(eq(payments.id, payment.id));
    const won = replies[0]!.status === 302 ? "refused" : "confirmed";
    expect(row!.status).toBe(won);
    expect(await decisionMails(member.user.id)).toEqual([
      { kind: won === "refused" ? "paymentRefused" : "paymentConfirmed" },
    ]);
  }
});

/** A competition with one category, its two organisers, and a team waiting for them. */
async function teamToReview() {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Clash ${randomUUID().slice(0, 4)}`,
  });
  const organisers: Person[] = [];
  for (const name of ["Olga Organiza", "Oscar Organiza"]) {
    const o = await createMember(server, `${randomUUID()}@example.com`, name);
    await grantRole(server.db, admin.user, {
      userId: o.user.id,
      kind: "organiser",
      eventId: event.id,
    });
    organisers.push(o);
  }
  const [category] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name: "Robot Sumo",
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      capacity: 4,
      registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      format: "llaves",
    })
    .returning();
  const captain = await createMember(server, `${randomUUID()}@example.com`, "Ana Capitana");
  const made = await captain.client.post(`/equipos/nuevo?categoria=${category!.id}`, {
    categoryId: category!.id,
    nombre: `Cóndores ${randomUUID().slice(0, 4)}`,
    colegio: "Colegio San Calixto",
    ciudad: "La Paz",
    robot: "Illimani",
  });
  expect(made.status).toBe(302);
  const [team] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.categoryId, category!.id));
  return {
    eventId: event.id,
    category: category!,
    teamId: team!.id,
    organisers: [organisers[0]!, organisers[1]!] as const,
  };
}

test("organisers deciding one team: the decision over a state the screen did not show is a conflict; a form without it is refused", async () => {
  const { eventId, teamId, organisers } = await teamToReview();
  const page = `/admin/eventos/${eventId}/equipos`;
  const [olga, oscar] = organisers;
  const rejected = await olga.client.post(page, {
    intent: "review",
    teamId,
    decision: "rechazar",
    motivo: "Robot fuera de reglamento",
    visto: "pending",
  });
  expect(rejected.status).toBe(302);
  const late = await oscar.client.post(page, {
    intent: "review",
    teamId,
    decision: "aprobar",
    visto: "pending",
  });
  expect(late.status).toBe(409);
  expect(text(late.text)).toContain(teamChangedMeanwhile("rejected"));
  const [row] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  expect(row!.status).toBe("rejected");
  const missing = await oscar.client.post(page, { intent: "review", teamId, decision: "aprobar" });
  expect(missing.status).toBe(400);
  expect(text(missing.text)).toContain(TEAM_MESSAGES.seenMissing);
});

test("two organisers deciding one team at the same moment: one decision is taken, the other is told", async () => {
  for (let round = 0; round < ROUNDS; round++) {
    const { eventId, teamId, organisers } = await teamToReview();
    const page = `/admin/eventos/${eventId}/equipos`;
    const replies = await Promise.all([
      organisers[0].client.post(page, {
        intent: "review",
        teamId,
        decision: "rechazar",
        motivo: "Falta el robot",
        visto: "pending",
      }),
      organisers[1].client.post(page, {
        intent: "review",
        teamId,
        decision: "aprobar",
        visto: "pending",
      }),
    ]);
    expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([302, 409]);
    const [row] = await server.db
      .select()
      .from(competitionTeams)
      .where(eq(competitionTeams.id, teamId));
    expect(row!.status).toBe(replies[0]!.status === 302 ? "rejected" : "approved");
  }
});

test("'Reabrir' names the final its screen showed: results reopened and made final again meanwhile are not reopened by the late one", async () => {
  const { eventId, category, organisers } = await teamToReview();
  const page = `/admin/eventos/${eventId}/categorias/${category.id}/resultados`;
  const first = new Date("2031-08-08T20:00:00.000Z");
  const makeFinal = (at: Date, by: Person) =>
    server.db
      .update(competitionCategories)
      .set({ finalAt: at, finalBy: by.user.id, finalByName: "Olga Organiza" })
      .where(eq(competitionCategories.id, category.id));
  await makeFinal(first, organisers[0]);
  const shownAt = /name="visto" value="([^"]+)"/.exec((await organisers[1].client.get(page)).text);
  expect(shownAt?.[1]).toBe(first.toISOString());
  // Olga reopens and makes them final again while Oscar's page shows the first final.
  expect(
    (await organisers[0].client.post(page, { intent: "reabrir", visto: first.toISOString() }))
      .status,
  ).toBe(302);
  const second = new Date("2031-08-08T21:00:00.000Z");
  await makeFinal(second, organisers[0]);
  const late = await organisers[1].client.post(page, {
    intent: "reabrir",
    visto: first.toISOString(),
  });
  expect(late.status).toBe(409);
  expect(text(late.text)).toContain(finalChangedMeanwhile("Olga Organiza"));
  const [row] = await server.db
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.id, category.id));
  expect(row!.finalAt).toEqual(second);
  const missing = await organisers[1].client.post(page, { intent: "reabrir" });
  expect(missing.status).toBe(400);
  expect(text(missing.text)).toContain(JUDGING_MESSAGES.finalSeenMissing);
  // Both reopening the same final at once: one reopens, the other is told it is not final.
  for (let round = 0; round < ROUNDS; round++) {
    const at = new Date(second.getTime() + (round + 1) * 60_000);
    await makeFinal(at, organisers[0]);
    const replies = await Promise.all(
      organisers.map((o) => o.client.post(page, { intent: "reabrir", visto: at.toISOString() })),
    );
    expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([302, 409]);
  }
});

const grantOf = async (userId: string) =>
  (
    await server.db
      .select({ id: roleGrants.id })
      .from(roleGrants)
      .where(and(eq(roleGrants.userId, userId), eq(roleGrants.kind, "treasurer")))
  )[0]?.id;

test("admins granting and taking back a role: the late one over another state is told, never a silent second change", async () => {
  const member = await createMember(server, `${randomUUID()}@example.com`, "Rita Rol");
  const grant = (who: Person, visto: string) =>
    who.client.post("/admin", {
      intent: "grantRole",
      userId: member.user.id,
      kind: "treasurer",
      visto,
    });
  const revoke = (who: Person, visto: string) =>
    who.client.post("/admin", {
      intent: "revokeRole",
      userId: member.user.id,
      kind: "treasurer",
      visto,
    });

  expect((await grant(admin, ROLE_NOT_SEEN)).status).toBe(302);
  const first = await grantOf(member.user.id);
  // The other admin's screen showed her without it.
  const twice = await grant(otherAdmin, ROLE_NOT_SEEN);
  expect(twice.status).toBe(409);
  expect(text(twice.text)).toContain(MEMBER_MESSAGES.roleGrantedMeanwhile);

  expect((await revoke(admin, first!)).status).toBe(302);
  const gone = await revoke(otherAdmin, first!);
  expect(gone.status).toBe(409);
  expect(text(gone.text)).toContain(MEMBER_MESSAGES.roleRevokedMeanwhile);

  // Taken back and given again: the late 'Quitar' names the old grant and leaves the new one.
  expect((await grant(admin, ROLE_NOT_SEEN)).status).toBe(302);
  const regiven = await grantOf(member.user.id);
  const stale = await revoke(otherAdmin, first!);
  expect(stale.status).toBe(409);
  expect(text(stale.text)).toContain(MEMBER_MESSAGES.roleRegrantedMeanwhile);
  expect(await grantOf(member.user.id)).toBe(regiven);

  for (const visto of [undefined, "", "no-es-un-id"]) {
    const fields: Record<string, string> = {
      intent: "revokeRole",
      userId: member.user.id,
      kind: "treasurer",
    };
    if (visto !== undefined) fields.visto = visto;
    const reply = await otherAdmin.client.post("/admin", fields);
    expect(reply.status, String(visto)).toBe(400);
    expect(text(reply.text)).toContain(MEMBER_MESSAGES.roleSeenMissing);
  }
  expect(await grantOf(member.user.id)).toBe(regiven);

  // At the same moment: one 'Quitar' takes it back, the other is told.
  for (let round = 0; round < ROUNDS; round++) {
    await grantRole(server.db, admin.user, { userId: member.user.id, kind: "treasurer" });
    const id = (await grantOf(member.user.id))!;
    const replies = await Promise.all([revoke(admin, id), revoke(otherAdmin, id)]);
    expect(replies.map((r) => r.status).sort(), `round ${round}`).toEqual([302, 409]);
    expect(await grantOf(member.user.id)).toBeUndefined();
  }
});

test("'Hacer administrador' and 'Quitar' name whether the screen showed an admin: a change over another is told, not repeated", async () => {
  const member = await createMember(server, `${randomUUID()}@example.com`, "Nico Nuevo");
  const setAdmin = (who: Person, intent: string, visto?: string) =>
    who.client.post("/admin", {
      intent,
      userId: member.user.id,
      ...(visto === undefined ? {} : { visto }),
    });
  expect((await setAdmin(admin, "grantAdmin", "0")).status).toBe(302);
  const late = await setAdmin(otherAdmin, "grantAdmin", "0");
  expect(late.status).toBe(409);
  expect(text(late.text)).toContain(MEMBER_MESSAGES.adminChangedMeanwhile);
  const missing = await setAdmin(otherAdmin, "revokeAdmin");
  expect(missing.status).toBe(400);
  expect(text(missing.text)).toContain(MEMBER_MESSAGES.adminSeenMissing);
  const [row] = await server.db.select().from(users).where(eq(users.id, member.user.id));
  expect(row!.isAdmin).toBe(true);
  // A visitor is still sent to sign in first, whatever the form says.
  const visitor = await new BrowserClient(server.url).post("/admin", {
    intent: "revokeAdmin",
    userId: member.user.id,
    visto: "1",
  });
  expect(visitor.status).toBe(302);
});
