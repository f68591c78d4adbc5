// The capability table walked at the model level (issue 32): every action of the table, done by
// its model functions, by every kind of person — a visitor, a member, an admin, and each role in
// scope and out of scope (door staff also outside their event's hours). Whoever the table allows
// succeeds; anyone else is refused with NotAllowedError and the audit log (written in the same
// transaction as every change) does not grow.
import { doorBoard, recordInspection } from "~/competitions/door.server";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, count, eq, inArray, notInArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkIn, checkInCode } from "~/attendance/check-in.server";
import { listAttendance, setCheckedIn } from "~/attendance/attendance.server";
import {
  auditLog,
  competitionCategories,
  competitionTeams,
  schools,
  events,
  judgingRuns,
  participations,
  payments,
  roleGrants,
  staffLinks,
  users,
  type User,
} from "~/db/schema.server";
import { addGalleryImage } from "~/events/gallery.server";
import { createEvent, deleteEvent, updateEvent } from "~/events/event-commands.server";
import { listEventsForAdmin } from "~/events/event.server";
import { setDoorWindow } from "~/attendance/door-window.server";
import { EventSchema } from "~/events/schemas";
import {
  addCategory,
  deleteCategory,
  moveCategory,
  updateCategory,
} from "~/competitions/categories.server";
import { mergeSchools, schoolsWithTeams } from "~/competitions/schools.server";
import { reviewTeam } from "~/competitions/team-commands.server";
import { listEventTeams } from "~/competitions/team-views.server";
import { enterRun } from "~/competitions/judging/entries.server";
import {
  drawBracket,
  listConflicts,
  markFinal,
  reopenCategory,
  resolveConflict,
  seedBracket,
  setJudgingRules,
} from "~/competitions/judging/organise.server";
import { listAudit } from "~/audit/audit.server";
import { queueParticipantsMessage } from "~/mail/mail.server";
import { getUserDetails, listUsers, setAdmin } from "~/members/admin-users.server";
import {
  ACTIONS,
  CAPABILITIES,
  isEventAction,
  NotAllowedError,
  ROLE_KINDS,
  type Action,
  type Grant,
  type RoleKind,
} from "~/kernel/permissions";
import { eventStaff, grantRole, loadGrants, revokeRole } from "~/members/roles.server";
import {
  createStaffLink,
  listStaffLinks,
  revokeStaffLink,
  type LinkHolder,
} from "~/members/staff-links.server";
import { createNote, deleteNote } from "~/publications/note.server";
import { loadSiteSections, saveSiteSection } from "~/site/sections.server";
import { zonedDateTime } from "~/kernel/time";
import { mayUpload } from "~/uploads/upload.server";
import { privateFolderStorage } from "~/uploads/private-storage.server";
import {
  readPaymentQr,
  removePaymentQr,
  savePaymentMethod,
} from "~/payments/payment-method.server";
import { readReceipt } from "~/payments/payment.server";
import {
  decidePayment,
  listPayments,
  paymentsCsvRows,
  recordRefund,
} from "~/payments/review.server";
import { VALID_EVENT } from "../helpers/events";
import { makeCompete } from "../helpers/competitions";
import { createTestDatabase, type TestDatabase } from "../helpers/database";

const SECRET = "s".repeat(64);
const ZONE = "America/La_Paz";
const HOUR = 3_600_000;
let database: TestDatabase;
const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-privado-"));

type Person = (User & { grants: Grant[] }) | null;

/** Whoever opened a staff link (decision 041), as a request sees them: the link read from the database. */
async function linkHolder(eventId: string): Promise<Person> {
  const { link } = await createStaffLink(
    database.db,
    SECRET,
    people.admin!,
    eventId,
    { label: `Enlace ${randomUUID().slice(0, 4)}` },
    ZONE,
  );
  const holder: LinkHolder = {
    isAdmin: false,
    grants: [{ kind: "doorLink", eventId }],
    link: { id: link.id, label: link.label, eventId },
  };
  // The model functions take any actor; the walk hands them the holder as it hands a member.
  return holder as unknown as Person;
}

async function member(
  grants: Array<{ kind: RoleKind; eventId: string | null; categoryId?: string }> = [],
  isAdmin = false,
) {
  const [user] = await database.db
    .insert(users)
    .values({
      issuer: "https://capacidades.invalid",
      subject: randomUUID(),
      email: `p-${randomUUID()}@example.com`,
      emailVerified: true,
      nombreCompleto: `Persona ${randomUUID().slice(0, 4)}`,
      isAdmin,
    })
    .returning();
  for (const g of grants) await database.db.insert(roleGrants).values({ userId: user!.id, ...g });
  // As a request sees them: the grants read from the database.
  return { ...user!, grants: await loadGrants(database.db, user!.id) };
}

/** An event starting `inHours` from now (on a whole minute), with one participant. */
async function event(inHours: number, participant: string) {
  const startsAt = new Date(Math.floor((Date.now() + inHours * HOUR) / 60_000) * 60_000);
  const local = zonedDateTime(startsAt, ZONE);
  const [row] = await database.db
    .insert(events)
    .values({
      ...VALID_EVENT,
      nombreEvento: `Evento ${randomUUID().slice(0, 6)}`,
      fechaEvento: local.date,
      horaEvento: local.time,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 2 * HOUR),
      enlacesVirtuales: [],
      publishedByName: "Prueba",
    })
    .returning();
  await database.db.insert(participations).values({ eventId: row!.id, userId: participant });
  return row!;
}

interface Case {
  name: string;
  person: () => Person;
  /** The event the person acts on. */
  target: () => string;
  /** The role case: its kind, whether the target is its event, and whether now is in its hours. */
  role?: { kind: RoleKind; inScope: boolean; inWindow: boolean };
  admin?: boolean;
}

/** What the table says, worked out here from the case (not by asking the module under test). */
function allowed(action: Action, c: Case): boolean {
  if (c.admin) return true;
  if (!c.role) return false;
  const roles: readonly RoleKind[] = CAPABILITIES[action];
  if (!roles.includes(c.role.kind)) return false;
  const kind = ROLE_KINDS[c.role.kind];
  if (kind.scope === "site" || !isEventAction(action)) return true;
  return c.role.inScope && (!kind.window || c.role.inWindow);
}

let soon: { id: string }; // starts in an hour: within door hours
let other: { id: string }; // another event, also soon
let later: { id: string }; // in ten days: outside door hours
let participant: User;
/** A member's payment at `soon`, with a receipt in the private store. */
let receiptPayment: { id: string };
const people: Record<string, Person> = {};

const CASES: Case[] = [
  { name: "visitante", person: () => null, target: () => soon.id },
  { name: "miembro", person: () => people.member!, target: () => soon.id },
  { name: "admin", person: () => people.admin!, target: () => soon.id, admin: true },
  {
    name: "organizador de este evento",
    person: () => people.organiser!,
    target: () => soon.id,
    role: { kind: "organiser", inScope: true, inWindow: true },
  },
  {
    name: "organizador de otro evento",
    person: () => people.organiserElsewhere!,
    target: () => soon.id,
    role: { kind: "organiser", inScope: false, inWindow: true },
  },
  {
    name: "editor",
    person: () => people.editor!,
    target: () => soon.id,
    role: { kind: "editor", inScope: true, inWindow: true },
  },
  {
    name: "puerta de este evento, en horario",
    person: () => people.door!,
    target: () => soon.id,
    role: { kind: "door", inScope: true, inWindow: true },
  },
  {
    name: "puerta de este evento, fuera de horario",
    person: () => people.doorLater!,
    target: () => later.id,
    role: { kind: "door", inScope: true, inWindow: false },
  },
  {
    name: "puerta de otro evento",
    person: () => people.doorElsewhere!,
    target: () => soon.id,
    role: { kind: "door", inScope: false, inWindow: true },
  },
  {
    name: "enlace de registro de este evento, en horario",
    person: () => people.link!,
    target: () => soon.id,
    role: { kind: "doorLink", inScope: true, inWindow: true },
  },
  {
    name: "enlace de registro de este evento, fuera de horario",
    person: () => people.linkLater!,
    target: () => later.id,
    role: { kind: "doorLink", inScope: true, inWindow: false },
  },
  {
    name: "tesorería",
    person: () => people.treasurer!,
    target: () => soon.id,
    role: { kind: "treasurer", inScope: true, inWindow: true },
  },
  {
    name: "enlace de registro de otro evento",
    person: () => people.linkElsewhere!,
    target: () => soon.id,
    role: { kind: "doorLink", inScope: false, inWindow: true },
  },
  {
    name: "jurado de una categoría de este evento",
    person: () => people.judge!,
    target: () => soon.id,
    role: { kind: "judge", inScope: true, inWindow: true },
  },
  {
    name: "jurado de otra categoría de este evento",
    person: () => people.judgeOtherCategory!,
    target: () => soon.id,
    role: { kind: "judge", inScope: false, inWindow: true },
  },
  {
    name: "jurado de otro evento",
    person: () => people.judgeElsewhere!,
    target: () => soon.id,
    role: { kind: "judge", inScope: false, inWindow: true },
  },
];

/** Each event's categories for competition day (decision 057), made in beforeAll. */
const judging: Record<
  string,
  { line: string; otherLine: string; sumo: string; team: string; sumoTeams: string[] }
> = {};
let judgingCategoryIds: string[] = [];

/** A run entry for the event's time trial, a new time each call. */
let runTime = 1_000;

function editInput(eventId: string) {
  const e = [soon, other, later].find((x) => x.id === eventId) as unknown as { startsAt: Date };
  const local = zonedDateTime(e.startsAt, ZONE);
  return EventSchema.parse({ ...VALID_EVENT, fechaEvento: local.date, horaEvento: local.time });
}

/** Each action of the table, done through the model functions that do it. */
const MUTATIONS: Record<Action, Array<(p: Person, eventId: string) => Promise<unknown>>> = {
  "users.read": [
    (p) => listUsers(database.db, p),
    (p) => getUserDetails(database.db, p, participant.id),
  ],
  "users.setAdmin": [async (p) => setAdmin(database.db, p, (await member()).id, true)],
  "roles.grant": [
    async (p) => grantRole(database.db, p, { userId: (await member()).id, kind: "editor" }),
    async (p) => {
      const held = await member([{ kind: "editor", eventId: null }]);
      await revokeRole(database.db, p, { userId: held.id, kind: "editor" });
    },
  ],
  "site.edit": [
    async (p) =>
      saveSiteSection(database.db, p, "social", (await loadSiteSections(database.db)).social),
  ],
  "audit.read": [
    (p) => listAudit(database.db, p, { person: "", kind: "", item: "", from: "", to: "" }, 1, ZONE),
  ],
  "events.list": [(p) => listEventsForAdmin(database.db, p)],
  "event.create": [(p) => createEvent(database.db, p, EventSchema.parse(VALID_EVENT), ZONE)],
  "event.delete": [async (p) => deleteEvent(database.db, p, (await event(24, participant.id)).id)],
  "event.manage": [(p, id) => eventStaff(database.db, p, id)],
  "event.edit": [(p, id) => updateEvent(database.db, p, id, editInput(id), ZONE)],
  "event.gallery": [
    (p, id) => addGalleryImage(database.db, p, id, "https://example.com/galeria.png"),
  ],
  "event.participants": [(p, id) => listAttendance(database.db, p, id)],
  "event.message": [
    (p, id) =>
      queueParticipantsMessage(database.db, p, id, {
        asunto: "Aviso",
        mensaje: "Llegad temprano.",
        incluirEspera: false,
      }),
  ],
  "event.checkIn": [
    (p, id) =>
      checkIn(database.db, SECRET, p, id, { code: checkInCode(SECRET, id, participant.id) }),
    (p, id) => setCheckedIn(database.db, p, id, participant.id, true),
  ],
  "event.door.grant": [
    async (p, id) =>
      grantRole(database.db, p, { userId: (await member()).id, kind: "door", eventId: id }),
    async (p, id) => {
      const held = await member([{ kind: "door", eventId: id }]);
      await revokeRole(database.db, p, { userId: held.id, kind: "door", eventId: id });
    },
  ],
  "event.door.window": [(p, id) => setDoorWindow(database.db, p, id, 3, 6)],
  "event.competition": [
    (p, id) => withCategory(id, () => addCategory(database.db, p, id, CATEGORY_FORM, ZONE)),
    (p, id) =>
      withCategory(id, (made) =>
        updateCategory(database.db, p, id, made.id, { ...CATEGORY_FORM, nombre: "Otra" }, ZONE),
      ),
    (p, id) => withCategory(id, (made) => moveCategory(database.db, p, id, made.id, "subir")),
    (p, id) => withCategory(id, (made) => deleteCategory(database.db, p, id, made.id)),
  ],
  "event.teams": [
    (p, id) => listEventTeams(database.db, p, id),
    (p, id) =>
      withTeam(id, (team) =>
        reviewTeam(database.db, p, id, team.id, "rechazar", "Falta el robot", new Date()),
      ),
  ],
  "event.judges.grant": [
    async (p, id) =>
      grantRole(database.db, p, {
        userId: (await member()).id,
        kind: "judge",
        eventId: id,
        categoryId: judging[id]!.line,
      }),
    async (p, id) => {
      const held = await member([{ kind: "judge", eventId: id, categoryId: judging[id]!.line }]);
      await revokeRole(database.db, p, {
        userId: held.id,
        kind: "judge",
        eventId: id,
        categoryId: judging[id]!.line,
      });
    },
  ],
  "event.judging": [
    (p, id) => setJudgingRules(database.db, p, judging[id]!.line, { tieRule: "compartido" }),
    (p, id) => listConflicts(database.db, p, judging[id]!.line),
    async (p, id) => {
      await markFinal(database.db, p, judging[id]!.line);
      await reopenCategory(database.db, p, judging[id]!.line);
    },
    (p, id) => drawBracket(database.db, p, judging[id]!.sumo),
    (p, id) => seedBracket(database.db, p, judging[id]!.sumo, judging[id]!.sumoTeams),
    async (p, id) => {
      // A conflict made directly (not through the model), for the organisers to decide.
      const [conflict] = await database.db
        .insert(judgingRuns)
        .values({
          categoryId: judging[id]!.line,
          teamId: judging[id]!.team,
          attempt: 3,
          timeMs: 5_000,
          state: "conflict",
          enteredByName: "Prueba",
        })
        .returning({ id: judgingRuns.id });
      try {
        await resolveConflict(database.db, p, judging[id]!.line, {
          kind: "run",
          id: conflict!.id,
          decision: "mantener",
        });
      } finally {
        await database.db.delete(judgingRuns).where(eq(judgingRuns.id, conflict!.id));
      }
    },
  ],
  "category.judge": [
    (p, id) =>
      enterRun(database.db, p, judging[id]!.line, {
        teamId: judging[id]!.team,
        attempt: 1,
        timeMs: runTime++,
      }),
  ],
  "event.inspect": [
    (p, id) => doorBoard(database.db, p, id, new Date()),
    (p, id) =>
      withTeam(id, async (team) => {
        await database.db
          .update(competitionTeams)
          .set({ status: "approved" })
          .where(eq(competitionTeams.id, team.id));
        return recordInspection(
          database.db,
          p,
          id,
          team.id,
          { result: "passed", notes: "" },
          new Date(),
        );
      }),
  ],
  "schools.merge": [
    (p) => schoolsWithTeams(database.db, p),
    async (p) => {
      const made = await database.db
        .insert(schools)
        .values([{ name: `Colegio ${randomUUID()}` }, { name: `Colegio ${randomUUID()}` }])
        .returning({ id: schools.id });
      try {
        return await mergeSchools(database.db, p, made[0]!.id, made[1]!.id);
      } finally {
        await database.db.delete(schools).where(
          inArray(
            schools.id,
            made.map((m) => m.id),
          ),
        );
      }
    },
  ],
  "event.staffLinks": [
    (p, id) => createStaffLink(database.db, SECRET, p, id, { label: "Voluntaria" }, ZONE),
    async (p, id) => {
      // Made directly (not through the model, whose log entry would count as this run's).
      const [link] = await database.db
        .insert(staffLinks)
        .values({
          eventId: id,
          label: "Para revocar",
          tokenHash: randomUUID(),
          expiresAt: new Date(Date.now() + 24 * HOUR),
          createdByName: "Prueba",
        })
        .returning();
      await revokeStaffLink(database.db, p, id, link!.id);
    },
    (p, id) => listStaffLinks(database.db, p, id),
  ],
  "publications.manage": [
    async (p) => {
      const note = await createNote(database.db, p, {
        titulo: "Nota",
        texto: "Texto.",
        enlaceImagen: "",
        enlacesAdicionales: [],
      } as never);
      await deleteNote(database.db, p, note.id);
    },
  ],
  "uploads.images": [
    async (p) => {
      if (!mayUpload(p, "admin")) throw new NotAllowedError();
    },
  ],
  "payments.setup": [
    (p) =>
      savePaymentMethod(database.db, p, {
        accountHolder: "Comunidad Ayllu",
        bank: "Banco Unión",
        instructions: "",
        qrExpiresOn: null,
      }),
    (p) => readPaymentQr(database.db, privateFolderStorage(privateDir), p),
    (p) => removePaymentQr(database.db, privateFolderStorage(privateDir), p),
  ],
  "payments.receipts": [
    (p) => readReceipt(database.db, privateFolderStorage(privateDir), p, receiptPayment.id),
  ],
  "payments.review": [
    (p) => listPayments(database.db, p, "todos"),
    (p) => paymentsCsvRows(database.db, p, "https://ayllu.example"),
    async (p) => decidePayment(database.db, p, (await payment("submitted")).id, "confirm"),
    async (p) => decidePayment(database.db, p, (await payment("submitted")).id, "refuse", "Monto"),
    async (p) => decidePayment(database.db, p, (await payment("pending")).id, "waive"),
    async (p) =>
      recordRefund(
        database.db,
        p,
        (await payment("confirmed", new Date(Date.now() - HOUR))).id,
        "Transferencia 42",
      ),
  ],
};

const CATEGORY_FORM = {
  nombre: "Seguidor de línea",
  nivel: "secundaria",
  minimo: "2",
  maximo: "3",
  fechaCierre: "2030-11-01",
  horaCierre: "23:59",
  formato: "tiempo",
};

/**
 * Runs `change` on an event with two categories made directly (not through the model, whose log
 * entries would count as this run's), the second passed; then leaves the event without any.
 */
async function withCategory(
  eventId: string,
  change: (made: { id: string }) => Promise<unknown>,
): Promise<unknown> {
  const base = {
    eventId,
    level: "abierta",
    minMembers: 1,
    maxMembers: 2,
    coachRequired: false,
    registrationClosesAt: new Date("2030-11-01T12:00:00Z"),
    format: "llaves",
  };
  const [, made] = await database.db
    .insert(competitionCategories)
    .values([
      { ...base, name: "Sumo", position: 1 },
      { ...base, name: "Minisumo", position: 2 },
    ])
    .returning({ id: competitionCategories.id });
  try {
    return await change(made!);
  } finally {
    // The event's competition-day categories (made in beforeAll) stay.
    await database.db
      .delete(competitionCategories)
      .where(
        and(
          eq(competitionCategories.eventId, eventId),
          notInArray(competitionCategories.id, judgingCategoryIds),
        ),
      );
  }
}

/** A team of a category of `eventId` (both made directly), gone again after `change`. */
async function withTeam(
  eventId: string,
  change: (team: { id: string }) => Promise<unknown>,
): Promise<unknown> {
  return withCategory(eventId, async (category) => {
    const [school] = await database.db
      .insert(schools)
      .values({ name: `Colegio ${randomUUID()}` })
      .returning({ id: schools.id });
    const [team] = await database.db
      .insert(competitionTeams)
      .values({
        eventId,
        categoryId: category.id,
        name: "Los Robots",
        schoolId: school!.id,
        city: "La Paz",
        robotName: "Rayo",
      })
      .returning({ id: competitionTeams.id });
    try {
      return await change(team!);
    } finally {
      await database.db.delete(competitionTeams).where(eq(competitionTeams.id, team!.id));
      await database.db.delete(schools).where(eq(schools.id, school!.id));
    }
  });
}

/** A payment of a new member at the event in ten days, in `status`. */
async function payment(status: string, leftAt: Date | null = null) {
  const payer = await member();
  const [row] = await database.db
    .insert(payments)
    .values({ eventId: later.id, userId: payer.id, amountCents: 3000, status, leftAt })
    .returning({ id: payments.id });
  return row!;
}

/** A time trial with an approved team, another time trial, and a bracket of two teams. */
async function judgingCategories(eventId: string) {
  const base = {
    eventId,
    level: "abierta",
    minMembers: 1,
    maxMembers: 2,
    coachRequired: false,
    registrationClosesAt: new Date("2030-11-01T12:00:00Z"),
  };
  const [line, otherLine, sumo] = await database.db
    .insert(competitionCategories)
    .values([
      { ...base, name: "Velocistas", position: 10, format: "tiempo" },
      { ...base, name: "Velocistas junior", position: 11, format: "tiempo" },
      { ...base, name: "Sumo del walk", position: 12, format: "llaves" },
    ])
    .returning({ id: competitionCategories.id });
  const [school] = await database.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const team = (categoryId: string, name: string) => ({
    eventId,
    categoryId,
    name,
    schoolId: school!.id,
    city: "Sucre",
    robotName: "Veloz",
    status: "approved",
  });
  const teams = await database.db
    .insert(competitionTeams)
    .values([team(line!.id, "Rayo"), team(sumo!.id, "Toro"), team(sumo!.id, "Oso")])
    .returning({ id: competitionTeams.id });
  await makeCompete(
    database.db,
    teams.map((t) => t.id),
  );
  return {
    line: line!.id,
    otherLine: otherLine!.id,
    sumo: sumo!.id,
    team: teams[0]!.id,
    sumoTeams: [teams[1]!.id, teams[2]!.id],
  };
}

async function auditCount(): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(auditLog);
  return row!.n;
}

beforeAll(async () => {
  database = await createTestDatabase();
  participant = await member();
  soon = await event(1, participant.id);
  other = await event(2, participant.id);
  later = await event(240, participant.id);
  for (const e of [soon, other, later]) judging[e.id] = await judgingCategories(e.id);
  judgingCategoryIds = Object.values(judging).flatMap((j) => [j.line, j.otherLine, j.sumo]);
  people.judge = await member([
    { kind: "judge", eventId: soon.id, categoryId: judging[soon.id]!.line },
  ]);
  people.judgeOtherCategory = await member([
    { kind: "judge", eventId: soon.id, categoryId: judging[soon.id]!.otherLine },
  ]);
  people.judgeElsewhere = await member([
    { kind: "judge", eventId: other.id, categoryId: judging[other.id]!.line },
  ]);
  people.member = await member();
  people.admin = await member([], true);
  people.organiser = await member([{ kind: "organiser", eventId: soon.id }]);
  people.organiserElsewhere = await member([{ kind: "organiser", eventId: other.id }]);
  people.editor = await member([{ kind: "editor", eventId: null }]);
  people.treasurer = await member([{ kind: "treasurer", eventId: null }]);
  people.door = await member([{ kind: "door", eventId: soon.id }]);
  people.doorLater = await member([{ kind: "door", eventId: later.id }]);
  people.doorElsewhere = await member([{ kind: "door", eventId: other.id }]);
  const receipt = `${"a".repeat(32)}.png`;
  fs.writeFileSync(path.join(privateDir, receipt), "png");
  // Another member's payment waiting for review: the participant's own pass stays valid at the door.
  const payer = await member();
  const [made] = await database.db
    .insert(payments)
    .values({
      eventId: soon.id,
      userId: payer.id,
      amountCents: 3000,
      status: "submitted",
      receiptFile: receipt,
    })
    .returning({ id: payments.id });
  receiptPayment = made!;
  people.link = await linkHolder(soon.id);
  people.linkLater = await linkHolder(later.id);
  people.linkElsewhere = await linkHolder(other.id);
}, 60_000);
afterAll(async () => {
  await database?.close();
  fs.rmSync(privateDir, { recursive: true, force: true });
});

test("the walk covers every action of the table, and every kind of role", () => {
  expect(Object.keys(MUTATIONS).sort()).toEqual([...ACTIONS].sort());
  const kinds = new Set(CASES.flatMap((c) => (c.role ? [c.role.kind] : [])));
  expect([...kinds].sort()).toEqual(Object.keys(ROLE_KINDS).sort());
});

describe.each(ACTIONS.map((action) => [action] as const))("%s", (action) => {
  test.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    for (const run of MUTATIONS[action]) {
      const before = await auditCount();
      const outcome = await run(c.person(), c.target()).then(
        () => "hecho",
        (error: unknown) => error,
      );
      if (allowed(action, c)) {
        expect(outcome).toBe("hecho");
      } else {
        expect(outcome).toBeInstanceOf(NotAllowedError);
        expect(await auditCount()).toBe(before);
      }
    }
  });
});

test("a role taken back is gone at the holder's next request, and their action is refused in Spanish", async () => {
  const admin = people.admin!;
  const organiser = await member([{ kind: "organiser", eventId: soon.id }]);
  await expect(setDoorWindow(database.db, organiser, soon.id, 2, 4)).resolves.toBeUndefined();
  await revokeRole(database.db, admin, {
    userId: organiser.id,
    kind: "organiser",
    eventId: soon.id,
  });
  const next = { ...organiser, grants: await loadGrants(database.db, organiser.id) };
  const refusal = await setDoorWindow(database.db, next, soon.id, 5, 5).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(NotAllowedError);
  expect((refusal as Error).message).toBe("Acceso denegado. No eres un administrador.");
  await setDoorWindow(database.db, admin, soon.id, 3, 6);
});

test("door staff outside their hours are told why; an organiser may widen the hours", async () => {
  const door = people.doorLater!;
  const refusal = await listAttendance(database.db, door, later.id).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(NotAllowedError);
  const outside = await checkIn(database.db, SECRET, door, later.id, {
    code: checkInCode(SECRET, later.id, participant.id),
  }).catch((e: unknown) => e);
  expect((outside as Error).message).toBe(
    "El registro de entrada de este evento no está abierto ahora para el personal de puerta.",
  );
  // 72 hours before is still not ten days: refused; the change itself is an admin's or organiser's.
  await setDoorWindow(database.db, people.admin!, later.id, 72, 6);
  await expect(
    checkIn(database.db, SECRET, door, later.id, {
      code: checkInCode(SECRET, later.id, participant.id),
    }),
  ).rejects.toBeInstanceOf(NotAllowedError);
});

test("bad role input: unknown member, unknown or malformed event, unknown kind, a kind without its event — a clear message, nothing changed", async () => {
  const admin = people.admin!;
  const target = await member();
  const before = await auditCount();
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [{ userId: randomUUID(), kind: "editor" }, 404, "Usuario no encontrado."],
    [{ userId: "no-es-un-id", kind: "editor" }, 404, "Usuario no encontrado."],
    [{ userId: target.id, kind: "door", eventId: randomUUID() }, 404, "Evento no encontrado."],
    [
      { userId: target.id, kind: "door", eventId: "x'; drop table users" },
      404,
      "Evento no encontrado.",
    ],
    [{ userId: target.id, kind: "organiser" }, 400, "Elige el evento de ese rol."],
    [{ userId: target.id, kind: "tesorero" }, 400, "Ese rol no existe."],
    [{ userId: target.id, kind: ["editor"] }, 400, "Ese rol no existe."],
  ];
  for (const [input, status, message] of cases) {
    const error = (await grantRole(database.db, admin, input as never).catch(
      (e: unknown) => e,
    )) as {
      status: number;
      message: string;
    };
    expect({ input, status: error.status, message: error.message }).toEqual({
      input,
      status,
      message,
    });
  }
  const revoke = (await revokeRole(database.db, admin, { userId: target.id, kind: "editor" }).catch(
    (e: unknown) => e,
  )) as { status: number; message: string };
  expect([revoke.status, revoke.message]).toEqual([400, "Ese rol ya no estaba asignado."]);
  expect(await auditCount()).toBe(before);
  expect(await loadGrants(database.db, target.id)).toEqual([]);
});

test("the table says what issues 32, 35, 38 and 39 ask: organisers run their event and its competition, editors the publications, door staff the door, treasurers the payments, judges their category's results", () => {
  expect(CAPABILITIES).toEqual({
    "users.read": [],
    "users.setAdmin": [],
    "roles.grant": [],
    "site.edit": [],
    "audit.read": [],
    "events.list": [],
    "event.create": [],
    "event.delete": [],
    "schools.merge": [],
    "event.manage": ["organiser"],
    "event.edit": ["organiser"],
    "event.gallery": ["organiser"],
    "event.participants": ["organiser"],
    "event.message": ["organiser"],
    "event.checkIn": ["organiser", "door", "doorLink"],
    "event.door.grant": ["organiser"],
    "event.staffLinks": ["organiser"],
    "event.door.window": ["organiser"],
    "event.competition": ["organiser"],
    "event.teams": ["organiser"],
    "event.judges.grant": ["organiser"],
    "event.judging": ["organiser"],
    "category.judge": ["organiser", "judge"],
    "event.inspect": ["organiser", "door"],
    "publications.manage": ["editor"],
    "uploads.images": ["organiser", "editor"],
    "payments.setup": ["treasurer"],
    "payments.receipts": ["treasurer"],
    "payments.review": ["treasurer"],
  });
});

test("retention: with AUDIT_RETENTION_DAYS older entries go, without it the log keeps everything", async () => {
  const { pruneAudit, recordAudit } = await import("~/audit/audit.server");
  const { loadConfig } = await import("~/kernel/config.server");
  const { TEST_ENV } = await import("../helpers/server");
  expect(loadConfig(TEST_ENV).auditRetentionDays).toBeNull();
  expect(loadConfig({ ...TEST_ENV, AUDIT_RETENTION_DAYS: "365" }).auditRetentionDays).toBe(365);
  for (const bad of ["0", "-3", "1.5", "mucho"]) {
    expect(() => loadConfig({ ...TEST_ENV, AUDIT_RETENTION_DAYS: bad })).toThrow(
      /AUDIT_RETENTION_DAYS/,
    );
  }
  const now = new Date();
  const old = new Date(now.getTime() - 400 * 86_400_000);
  await recordAudit(database.db, {
    actor: { system: "Prueba" },
    role: "system",
    action: "test.old",
    itemKind: "site",
    summary: "Antigua",
    at: old,
  });
  expect(await pruneAudit(database.db, null, now)).toBe(0);
  const before = await auditCount();
  expect(await pruneAudit(database.db, 365, now)).toBe(1);
  expect(await auditCount()).toBe(before - 1);
});
