// Teams register themselves in a competition's categories (docs/decisions/052-teams.md). A member
// creates a team and is its captain; others join with the team's invitation; an adult confirms as
// its coach; admins and the event's organisers approve or reject it. Every change checks who asks
// (the permissions module for organisers; membership for the team's own people), locks the
// category row so that places and names are decided one change at a time, and refuses after the
// category's registration deadline.
import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  competitionCategories,
  competitionTeams,
  events,
  payments,
  schools,
  teamInvitations,
  teamMembers,
  users,
  type CompetitionCategory,
  type CompetitionTeam,
  type User,
} from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";
import { zonedDateTime } from "~/kernel/time";
import { assertMay, may, type Grant } from "~/kernel/permissions";
import { queueMail, recipients } from "~/mail/mail.server";
import { holdTeamFee, releaseTeamFee } from "~/payments/hold.server";
import { LEVELS, type Level } from "./categories";
import {
  INVITATION_CODE,
  normaliseInvitationCode,
  publicName,
  TEAM_LIMITS,
  TEAM_MESSAGES,
  TEAM_STATUS,
  teamChangedMeanwhile,
  type TeamStatus,
} from "./teams";

export type TeamActor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> &
      Partial<Pick<User, "fechaNacimiento">> & { grants?: readonly Grant[] })
  | null;

/** A refused change of a team; `field` is the form field to correct, when one is. */
export class TeamError extends Refusal {
  override name = "TeamError";
  constructor(
    message: string,
    status: 400 | 401 | 403 | 404 | 409 = 400,
    readonly field?: keyof TeamFormValues,
  ) {
    super(message, status);
  }
}

/** The team form as typed. */
export interface TeamFormValues {
  nombre: string;
  colegio: string;
  ciudad: string;
  robot: string;
}
export const TEAM_FIELDS: readonly (keyof TeamFormValues)[] = [
  "nombre",
  "colegio",
  "ciudad",
  "robot",
];

export interface TeamInput {
  name: string;
  school: string;
  city: string;
  robotName: string;
}

/** The states that hold a place in the category: a rejected or withdrawn team frees it. */
const LIVE: TeamStatus[] = ["pending", "approved"];

function oneLine(value: unknown, field: keyof TeamFormValues): string {
  if (value !== undefined && typeof value !== "string")
    throw new TeamError(TEAM_MESSAGES.malformed, 400, field);
  return (typeof value === "string" ? value : "").trim().replace(/\s+/g, " ");
}

/** The team form checked whole. */
export function parseTeam(fields: Partial<Record<keyof TeamFormValues, unknown>>): TeamInput {
  const checks: [keyof TeamFormValues, string, number, string][] = [
    ["nombre", TEAM_MESSAGES.nameMissing, TEAM_LIMITS.nameMax, TEAM_MESSAGES.nameTooLong],
    ["colegio", TEAM_MESSAGES.schoolMissing, TEAM_LIMITS.schoolMax, TEAM_MESSAGES.schoolTooLong],
    ["ciudad", TEAM_MESSAGES.cityMissing, TEAM_LIMITS.cityMax, TEAM_MESSAGES.cityTooLong],
    ["robot", TEAM_MESSAGES.robotMissing, TEAM_LIMITS.robotNameMax, TEAM_MESSAGES.robotTooLong],
  ];
  const out: Record<string, string> = {};
  for (const [field, missing, max, tooLong] of checks) {
    const value = oneLine(fields[field], field);
    if (value === "") throw new TeamError(missing, 400, field);
    if ([...value].length > max) throw new TeamError(tooLong, 400, field);
    out[field] = value;
  }
  return { name: out.nombre!, school: out.colegio!, city: out.ciudad!, robotName: out.robot! };
}

function signedIn(actor: TeamActor): NonNullable<TeamActor> {
  if (!actor) throw new TeamError(TEAM_MESSAGES.signIn, 401);
  return actor;
}

// Closed at the deadline, and always once its results are final: the members a certificate by
// place names are those of the final (decision 060).
const isClosed = (
  category: Pick<CompetitionCategory, "registrationClosesAt" | "finalAt">,
  now: Date,
) => category.finalAt !== null || now.getTime() >= category.registrationClosesAt.getTime();

/**
 * Locks a category (the order of every team change in it) with its event's name. The event's row
 * first, in the order a payment's decision, the expiry of a hold and a category's edit take them
 * (event, category, payment): a team change that inserts a fee, whose foreign key needs the
 * event's row, then never waits for a decision that waits for it.
 */
async function lockCategory(tx: Tx, categoryId: unknown) {
  if (!isUuid(categoryId)) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  const [owner] = await tx
    .select({ eventId: competitionCategories.eventId })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  if (!owner) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  await tx.select({ id: events.id }).from(events).where(eq(events.id, owner.eventId)).for("update");
  const [row] = await tx
    .select({ category: competitionCategories, eventName: events.nombreEvento })
    .from(competitionCategories)
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(competitionCategories.id, categoryId))
    .for("update", { of: competitionCategories });
  if (!row) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  return row;
}

/** Reads a team, then locks its category and reads the team again under that lock. */
async function lockTeam(tx: Tx, teamId: unknown) {
  if (!isUuid(teamId)) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const [first] = await tx
    .select({ categoryId: competitionTeams.categoryId })
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  if (!first) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const { category, eventName } = await lockCategory(tx, first.categoryId);
  const [team] = await tx.select().from(competitionTeams).where(eq(competitionTeams.id, teamId));
  if (!team) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const members = await tx
    .select({ userId: teamMembers.userId, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, team.id))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  return { team, category, eventName, members };
}

async function schoolId(tx: Tx, name: string): Promise<string> {
  const [known] = await tx
    .select({ id: schools.id })
    .from(schools)
    .where(sql`lower(${schools.name}) = lower(${name})`);
  if (known) return known.id;
  const [made] = await tx
    .insert(schools)
    .values({ name })
    .onConflictDoNothing()
    .returning({ id: schools.id });
  if (made) return made.id;
  const [again] = await tx
    .select({ id: schools.id })
    .from(schools)
    .where(sql`lower(${schools.name}) = lower(${name})`);
  return again!.id;
}

async function nameTaken(tx: Tx, categoryId: string, name: string, without?: string) {
  const [taken] = await tx
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(
      and(
        eq(competitionTeams.categoryId, categoryId),
        ne(competitionTeams.status, "withdrawn"),
        sql`lower(${competitionTeams.name}) = lower(${name})`,
        without ? ne(competitionTeams.id, without) : undefined,
      ),
    );
  if (taken) throw new TeamError(TEAM_MESSAGES.nameTaken, 409, "nombre");
}

async function inCategory(tx: Tx, categoryId: string, userId: string) {
  const [row] = await tx
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.categoryId, categoryId), eq(teamMembers.userId, userId)));
  return row?.teamId ?? null;
}

/** 16 characters of Crockford's base32 from 80 random bits. */
export function newInvitationCode(): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

async function issueInvitation(tx: Tx, teamId: string, by: string, now: Date): Promise<string> {
  await tx
    .update(teamInvitations)
    .set({ revokedAt: now })
    .where(and(eq(teamInvitations.teamId, teamId), sql`${teamInvitations.revokedAt} is null`));
  const code = newInvitationCode();
  await tx.insert(teamInvitations).values({ teamId, code, createdBy: by, createdAt: now });
  return code;
}

/** The category a new team registers in, for its form (null when there is none such). */
export async function categoryForNewTeam(db: Db, categoryId: unknown) {
  if (!isUuid(categoryId)) return null;
  const [row] = await db
    .select({ category: competitionCategories, eventName: events.nombreEvento })
    .from(competitionCategories)
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(competitionCategories.id, categoryId));
  if (!row) return null;
  const [taken] = await db
    .select({
      live: sql<number>`count(*) filter (where ${inArray(competitionTeams.status, LIVE)})::int`,
      waiting: sql<number>`count(*) filter (where ${competitionTeams.status} = 'waiting')::int`,
    })
    .from(competitionTeams)
    .where(eq(competitionTeams.categoryId, categoryId));
  return { ...row, teams: taken?.live ?? 0, waiting: taken?.waiting ?? 0 };
}

/** The known schools and universities, for the form's suggestions. */
export async function listSchools(db: Db) {
  return db
    .select({ id: schools.id, name: schools.name })
    .from(schools)
    .orderBy(asc(sql`lower(${schools.name})`));
}

/** The places a category has left (null: no limit), counted under its lock. */
async function placesLeft(
  tx: Tx,
  category: Pick<CompetitionCategory, "id" | "capacity">,
): Promise<number | null> {
  if (category.capacity === null) return null;
  const [taken] = await tx
    .select({ n: count() })
    .from(competitionTeams)
    .where(
      and(eq(competitionTeams.categoryId, category.id), inArray(competitionTeams.status, LIVE)),
    );
  return Math.max(0, category.capacity - (taken?.n ?? 0));
}

async function firstWaiting(tx: Tx, categoryId: string) {
  const [row] = await tx
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(and(eq(competitionTeams.categoryId, categoryId), eq(competitionTeams.status, "waiting")))
    .orderBy(asc(competitionTeams.createdAt), asc(competitionTeams.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Gives the category's free places to the teams waiting, first registered first (all of them
 * when it has no limit), until its event starts. Each becomes pending as a new team is; where
 * there is a fee its captain gets a hold from `now` and the mail that says how to pay, otherwise
 * the mail that says the team has its place. Call it holding the category's lock (every team
 * change does). Returns the ids of the teams that got a place.
 */
export async function fillTeamPlaces(
  tx: Tx,
  category: Pick<CompetitionCategory, "id" | "eventId" | "name" | "capacity" | "feeCents">,
  now: Date,
): Promise<string[]> {
  const [event] = await tx
    .select({ startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, category.eventId));
  if (!event || event.startsAt.getTime() <= now.getTime()) return [];
  const free = await placesLeft(tx, category);
  if (free === 0) return [];
  const query = tx
    .select({
      id: competitionTeams.id,
      name: competitionTeams.name,
      captainId: competitionTeams.captainId,
    })
    .from(competitionTeams)
    .where(
      and(eq(competitionTeams.categoryId, category.id), eq(competitionTeams.status, "waiting")),
    )
    .orderBy(asc(competitionTeams.createdAt), asc(competitionTeams.id));
  const next = free === null ? await query : await query.limit(free);
  for (const team of next) {
    await tx
      .update(competitionTeams)
      .set({ status: "pending", updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
    if (!team.captainId) continue;
    if (category.feeCents > 0)
      await holdTeamFee(
        tx,
        {
          eventId: category.eventId,
          teamId: team.id,
          payerId: team.captainId,
          amountCents: category.feeCents,
        },
        now,
        { fromWaitlist: true },
      );
    else
      await queueMail(tx, "teamPlace", recipients.members([team.captainId]), {
        eventId: category.eventId,
        data: { team: { id: team.id, name: team.name, category: category.name } },
      });
  }
  return next.map((t) => t.id);
}

/** 'Inscribir equipo': the member creates a team and is its captain and first member. */
export async function createTeam(
  db: Db,
  actor: TeamActor,
  categoryId: unknown,
  fields: Partial<Record<keyof TeamFormValues, unknown>>,
  now: Date,
): Promise<CompetitionTeam> {
  const me = signedIn(actor);
  const input = parseTeam(fields);
  return db.transaction(async (tx) => {
    const { category } = await lockCategory(tx, categoryId);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    if (await inCategory(tx, category.id, me.id))
      throw new TeamError(TEAM_MESSAGES.alreadyInCategory, 409);
    // A full category, or one with teams already waiting, puts the new team on its waiting list.
    const waiting =
      (await placesLeft(tx, category)) === 0 || (await firstWaiting(tx, category.id)) !== null;
    await nameTaken(tx, category.id, input.name);
    const [team] = await tx
      .insert(competitionTeams)
      .values({
        eventId: category.eventId,
        categoryId: category.id,
        name: input.name,
        schoolId: await schoolId(tx, input.school),
        city: input.city,
        robotName: input.robotName,
        captainId: me.id,
        status: waiting ? "waiting" : "pending",
        createdAt: now,
      })
      .returning();
    await tx
      .insert(teamMembers)
      .values({ teamId: team!.id, userId: me.id, categoryId: category.id, joinedAt: now });
    await issueInvitation(tx, team!.id, me.id, now);
    // A fee holds the place like a person's: a payment of the team, paid by its captain. A team
    // waiting has no place to hold: its fee is asked when it gets one.
    if (category.feeCents > 0 && !waiting)
      await holdTeamFee(
        tx,
        {
          eventId: category.eventId,
          teamId: team!.id,
          payerId: me.id,
          amountCents: category.feeCents,
        },
        now,
      );
    return team!;
  });
}

function captainOnly(team: CompetitionTeam, actor: NonNullable<TeamActor>) {
  if (team.captainId !== actor.id) throw new TeamError(TEAM_MESSAGES.onlyCaptain, 403);
  if (team.status === "withdrawn" || team.status === "rejected")
    throw new TeamError(TEAM_MESSAGES.teamClosed, 409);
}

/** 'Guardar equipo': the captain changes the team's data until the deadline. */
export async function updateTeam(
  db: Db,
  actor: TeamActor,
  teamId: unknown,
  fields: Partial<Record<keyof TeamFormValues, unknown>>,
  now: Date,
): Promise<void> {
  const me = signedIn(actor);
  const input = parseTeam(fields);
  await db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    await nameTaken(tx, category.id, input.name, team.id);
    await tx
      .update(competitionTeams)
      .set({
        name: input.name,
        schoolId: await schoolId(tx, input.school),
        city: input.city,
        robotName: input.robotName,
        updatedAt: now,
      })
      .where(eq(competitionTeams.id, team.id));
  });
}

/**
 * The robot's photo (an uploaded image's path) set or removed by the captain until the deadline.
 * Returns the photo replaced, for the caller to release.
 */
export async function setRobotPhoto(
  db: Db,
  actor: TeamActor,
  teamId: unknown,
  photo: string | null,
  now: Date,
): Promise<string | null> {
  const me = signedIn(actor);
  if (photo !== null && !/^\/imagenes\/[0-9a-f]{32}-[0-9]+\.webp$/.test(photo))
    throw new TeamError(TEAM_MESSAGES.malformed);
  return db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    await tx
      .update(competitionTeams)
      .set({ robotPhoto: photo, updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
    return team.robotPhoto && team.robotPhoto !== photo ? team.robotPhoto : null;
  });
}

/** 'Nuevo enlace de invitación': the old link stops working. */
export async function renewInvitation(db: Db, actor: TeamActor, teamId: unknown, now: Date) {
  const me = signedIn(actor);
  return db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    return issueInvitation(tx, team.id, me.id, now);
  });
}

/** The team an invitation code opens, if it is live (null for a forged, old or malformed one). */
export async function findInvitation(db: Db, typed: unknown) {
  if (typeof typed !== "string" || typed.length > 64) return null;
  const code = normaliseInvitationCode(typed);
  if (!INVITATION_CODE.test(code)) return null;
  const [row] = await db
    .select({
      code: teamInvitations.code,
      teamId: competitionTeams.id,
      teamName: competitionTeams.name,
      status: competitionTeams.status,
      city: competitionTeams.city,
      school: schools.name,
      categoryId: competitionCategories.id,
      categoryName: competitionCategories.name,
      level: competitionCategories.level,
      coachRequired: competitionCategories.coachRequired,
      maxMembers: competitionCategories.maxMembers,
      closesAt: competitionCategories.registrationClosesAt,
      eventId: events.id,
      eventName: events.nombreEvento,
    })
    .from(teamInvitations)
    .innerJoin(competitionTeams, eq(competitionTeams.id, teamInvitations.teamId))
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .innerJoin(events, eq(events.id, competitionTeams.eventId))
    .where(and(eq(teamInvitations.code, code), sql`${teamInvitations.revokedAt} is null`));
  if (!row || row.status === "withdrawn" || row.status === "rejected") return null;
  return row;
}

/** Locks the team an invitation opens; a code not live is refused. */
async function lockInvited(tx: Tx, typed: unknown) {
  const invitation = await findInvitation(tx, typed);
  if (!invitation) throw new TeamError(TEAM_MESSAGES.invitationInvalid, 404);
  const locked = await lockTeam(tx, invitation.teamId);
  const [still] = await tx
    .select({ id: teamInvitations.id })
    .from(teamInvitations)
    .where(
      and(eq(teamInvitations.code, invitation.code), sql`${teamInvitations.revokedAt} is null`),
    );
  if (!still || locked.team.status === "withdrawn" || locked.team.status === "rejected")
    throw new TeamError(TEAM_MESSAGES.invitationInvalid, 404);
  return locked;
}

/** 'Unirme al equipo' with an invitation: the member joins as a competitor. */
export async function joinTeam(db: Db, actor: TeamActor, code: unknown, now: Date) {
  const me = signedIn(actor);
  return db.transaction(async (tx) => {
    const { team, category, members } = await lockInvited(tx, code);
    if (members.some((m) => m.userId === me.id))
      throw new TeamError(TEAM_MESSAGES.alreadyMember, 409);
    if (team.coachId === me.id) throw new TeamError(TEAM_MESSAGES.memberIsCoach, 409);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    if (members.length >= category.maxMembers) throw new TeamError(TEAM_MESSAGES.teamFull, 409);
    if (await inCategory(tx, category.id, me.id))
      throw new TeamError(TEAM_MESSAGES.alreadyInCategory, 409);
    await tx
      .insert(teamMembers)
      .values({ teamId: team.id, userId: me.id, categoryId: category.id, joinedAt: now });
    return team.id;
  });
}

/** Whether a birth date (YYYY-MM-DD) is of someone 18 or older on `today` (YYYY-MM-DD). */
export function isAdult(birthDate: string | null | undefined, today: string): boolean {
  if (!birthDate || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) return false;
  const eighteen = `${String(Number(today.slice(0, 4)) - 18).padStart(4, "0")}${today.slice(4)}`;
  return birthDate <= eighteen;
}

/**
 * 'Confirmo que soy el entrenador' with an invitation: an adult (by the birth date on their own
 * profile, read here, never trusted from the form) confirms as the team's coach, and with it the
 * adults' consent for minors (COACH_CONSENT). A coach may coach several teams.
 */
export async function confirmCoach(
  db: Db,
  actor: TeamActor,
  code: unknown,
  consent: unknown,
  now: Date,
  timeZone: string,
) {
  const me = signedIn(actor);
  return db.transaction(async (tx) => {
    const { team, category, members } = await lockInvited(tx, code);
    if (team.coachId === me.id && team.coachConfirmedAt)
      throw new TeamError(TEAM_MESSAGES.alreadyMember, 409);
    if (members.some((m) => m.userId === me.id))
      throw new TeamError(TEAM_MESSAGES.coachIsMember, 409);
    if (team.coachId && team.coachConfirmedAt) throw new TeamError(TEAM_MESSAGES.coachTaken, 409);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    const [person] = await tx
      .select({ fechaNacimiento: users.fechaNacimiento })
      .from(users)
      .where(eq(users.id, me.id));
    if (!person?.fechaNacimiento) throw new TeamError(TEAM_MESSAGES.coachNoBirthDate, 403);
    if (!isAdult(person.fechaNacimiento, zonedDateTime(now, timeZone).date))
      throw new TeamError(TEAM_MESSAGES.coachMinor, 403);
    if (consent !== "si") throw new TeamError(TEAM_MESSAGES.coachConsent, 400);
    await tx
      .update(competitionTeams)
      .set({ coachId: me.id, coachConfirmedAt: now, updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
    return team.id;
  });
}

/** 'Salir del equipo': a member who is not the captain leaves, until the deadline. */
export async function leaveTeam(db: Db, actor: TeamActor, teamId: unknown, now: Date) {
  const me = signedIn(actor);
  await db.transaction(async (tx) => {
    const { team, category, members } = await lockTeam(tx, teamId);
    if (!members.some((m) => m.userId === me.id)) throw new TeamError(TEAM_MESSAGES.notMember, 403);
    if (team.captainId === me.id) throw new TeamError(TEAM_MESSAGES.captainCannotLeave, 409);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, me.id)));
  });
}

/** 'Quitar del equipo': the captain removes a member, until the deadline. */
export async function removeMember(
  db: Db,
  actor: TeamActor,
  teamId: unknown,
  userId: unknown,
  now: Date,
) {
  const me = signedIn(actor);
  await db.transaction(async (tx) => {
    const { team, category, members } = await lockTeam(tx, teamId);
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    if (!isUuid(userId) || userId === me.id || !members.some((m) => m.userId === userId))
      throw new TeamError(TEAM_MESSAGES.memberNotFound, 404);
    await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, userId)));
    // The link they joined with would let them straight back in: a new one replaces it.
    await issueInvitation(tx, team.id, me.id, now);
  });
}

/**
 * 'Quitar entrenador': the captain takes the coach off the team (someone who confirmed with the
 * shared link and is not the team's coach, say), until the deadline. The invitation changes with
 * it, so that the link they used no longer works; the team then needs a coach again where its
 * category requires one.
 */
export async function removeCoach(db: Db, actor: TeamActor, teamId: unknown, now: Date) {
  const me = signedIn(actor);
  await db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    if (!team.coachId) throw new TeamError(TEAM_MESSAGES.noCoach, 409);
    await tx
      .update(competitionTeams)
      .set({ coachId: null, coachConfirmedAt: null, updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
    await issueInvitation(tx, team.id, me.id, now);
  });
}

/**
 * Withdraws a team (inside a transaction holding its category's lock): its members go free, a fee
 * not paid is cancelled and one paid is marked for a refund, and its place goes to the first
 * team waiting.
 */
export async function withdraw(
  tx: Tx,
  teamId: string,
  category: Pick<CompetitionCategory, "id" | "eventId" | "name" | "capacity" | "feeCents">,
  now: Date,
) {
  await releaseTeamFee(tx, teamId, now);
  await tx.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  await tx
    .update(teamInvitations)
    .set({ revokedAt: now })
    .where(and(eq(teamInvitations.teamId, teamId), sql`${teamInvitations.revokedAt} is null`));
  await tx
    .update(competitionTeams)
    .set({ status: "withdrawn", withdrawnAt: now, updatedAt: now })
    .where(eq(competitionTeams.id, teamId));
  await fillTeamPlaces(tx, category, now);
}

/**
 * 'Retirar el equipo': the captain withdraws it; its place is free again. Before the deadline, or
 * at any time once the organisers rejected it: its members are then free to register in another
 * team of the category, and a fee paid is marked for a refund.
 */
export async function withdrawTeam(db: Db, actor: TeamActor, teamId: unknown, now: Date) {
  const me = signedIn(actor);
  await db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    if (team.status === "rejected" && team.captainId === me.id) {
      await withdraw(tx, team.id, category, now);
      return;
    }
    captainOnly(team, me);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    await withdraw(tx, team.id, category, now);
  });
}

/** 'Dejar de ser entrenador': the coach steps down (the team then needs another, where required). */
export async function leaveAsCoach(db: Db, actor: TeamActor, teamId: unknown, now: Date) {
  const me = signedIn(actor);
  await db.transaction(async (tx) => {
    const { team, category } = await lockTeam(tx, teamId);
    if (team.coachId !== me.id) throw new TeamError(TEAM_MESSAGES.notMember, 403);
    if (isClosed(category, now)) throw new TeamError(TEAM_MESSAGES.closed, 409);
    await tx
      .update(competitionTeams)
      .set({ coachId: null, coachConfirmedAt: null, updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
  });
}

/** What makes a team complete (issue 38): its members, its coach where required, its fee paid. */
export function completeness(
  category: Pick<CompetitionCategory, "minMembers" | "coachRequired" | "feeCents">,
  team: { members: number; coachConfirmed: boolean; paid: boolean },
) {
  const members = team.members >= category.minMembers;
  const coach = !category.coachRequired || team.coachConfirmed;
  const fee = category.feeCents === 0 || team.paid;
  return { members, coach, fee, complete: members && coach && fee };
}

async function paidTeams(db: Db, teamIds: readonly string[]): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .select({ teamId: payments.teamId })
    .from(payments)
    .where(
      and(
        eq(payments.subjectKind, "team"),
        inArray(payments.teamId, [...teamIds]),
        inArray(payments.status, ["confirmed", "waived"]),
      ),
    );
  return new Set(rows.map((r) => r.teamId!));
}

const fullName = (u: { nombreCompleto: string | null; displayName: string | null }) =>
  u.nombreCompleto?.trim() || u.displayName?.trim() || "Integrante";

/**
 * A team's page as `viewer` may see it: its members, coach and the event's organisers (and
 * admins) read full names and the invitation; anyone else reads competitors as 'Ana Q.' (point 3),
 * never an e-mail or a birth date.
 */
export async function teamPage(db: Db, viewer: TeamActor, teamId: unknown) {
  if (!isUuid(teamId)) return null;
  const [row] = await db
    .select({
      team: competitionTeams,
      school: schools.name,
      category: competitionCategories,
      eventName: events.nombreEvento,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .innerJoin(events, eq(events.id, competitionTeams.eventId))
    .where(eq(competitionTeams.id, teamId));
  if (!row) return null;
  const { team, category } = row;
  const memberRows = await db
    .select({
      userId: teamMembers.userId,
      nombreCompleto: users.nombreCompleto,
      displayName: users.displayName,
      joinedAt: teamMembers.joinedAt,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, team.id))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  const [coach] = team.coachId
    ? await db
        .select({ nombreCompleto: users.nombreCompleto, displayName: users.displayName })
        .from(users)
        .where(eq(users.id, team.coachId))
    : [];
  const isMember = viewer !== null && memberRows.some((m) => m.userId === viewer.id);
  const isCoach = viewer !== null && team.coachId === viewer.id;
  const isOrganiser = may(viewer, "event.teams", { eventId: team.eventId });
  const insider = isMember || isCoach || isOrganiser;
  const [invitation] =
    insider && (team.status === "waiting" || LIVE.includes(team.status as TeamStatus))
      ? await db
          .select({ code: teamInvitations.code })
          .from(teamInvitations)
          .where(
            and(eq(teamInvitations.teamId, team.id), sql`${teamInvitations.revokedAt} is null`),
          )
      : [];
  const paid = (await paidTeams(db, [team.id])).has(team.id);
  // Its place on the waiting list (1 = the next to get a place), for everyone: the list is public.
  const [ahead] =
    team.status === "waiting"
      ? await db
          .select({ n: count() })
          .from(competitionTeams)
          .where(
            and(
              eq(competitionTeams.categoryId, category.id),
              eq(competitionTeams.status, "waiting"),
              sql`(${competitionTeams.createdAt}, ${competitionTeams.id}) < (${team.createdAt.toISOString()}::timestamptz, ${team.id}::uuid)`,
            ),
          )
      : [];
  // The team's fee as it stands now (the latest payment of the team), for its own people.
  const [fee] =
    insider && category.feeCents > 0
      ? await db
          .select({
            status: payments.status,
            userId: payments.userId,
            heldUntil: payments.heldUntil,
          })
          .from(payments)
          .where(and(eq(payments.subjectKind, "team"), eq(payments.teamId, team.id)))
          .orderBy(desc(payments.createdAt))
          .limit(1)
      : [];
  return {
    fee: fee
      ? {
          status: fee.status,
          heldUntil: fee.heldUntil,
          payer: viewer !== null && fee.userId === viewer.id,
        }
      : null,
    team: {
      id: team.id,
      name: team.name,
      school: row.school,
      city: team.city,
      robotName: team.robotName,
      robotPhoto: team.robotPhoto,
      status: team.status as TeamStatus,
      statusLabel: TEAM_STATUS[team.status as TeamStatus],
      reviewReason: insider ? team.reviewReason : null,
      coachConfirmed: team.coachConfirmedAt !== null,
      waitingPosition: ahead ? ahead.n + 1 : null,
    },
    category: {
      id: category.id,
      name: category.name,
      level: category.level as Level,
      levelLabel: LEVELS[category.level as Level],
      minMembers: category.minMembers,
      maxMembers: category.maxMembers,
      coachRequired: category.coachRequired,
      feeCents: category.feeCents,
      registrationClosesAt: category.registrationClosesAt,
    },
    event: { id: team.eventId, name: row.eventName },
    members: memberRows.map((m) => ({
      id: insider ? m.userId : null,
      name: insider ? fullName(m) : publicName(fullName(m)),
      captain: m.userId === team.captainId,
    })),
    coach: coach ? (insider ? fullName(coach) : publicName(fullName(coach))) : null,
    invitation: invitation?.code ?? null,
    completeness: completeness(category, {
      members: memberRows.length,
      coachConfirmed: team.coachConfirmedAt !== null,
      paid,
    }),
    viewer: {
      isMember,
      isCoach,
      isCaptain: viewer !== null && team.captainId === viewer.id,
      isOrganiser,
    },
  };
}

export type TeamPage = NonNullable<Awaited<ReturnType<typeof teamPage>>>;

/**
 * The teams of an event's categories as the public sees them (point 3): names of competitors as
 * 'Ana Q.', the team, school and city; withdrawn and rejected teams are not shown.
 */
export async function publicTeamsByCategory(db: Db, eventId: string) {
  const rows = await db
    .select({
      id: competitionTeams.id,
      categoryId: competitionTeams.categoryId,
      name: competitionTeams.name,
      city: competitionTeams.city,
      robotName: competitionTeams.robotName,
      status: competitionTeams.status,
      school: schools.name,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .where(and(eq(competitionTeams.eventId, eventId), inArray(competitionTeams.status, LIVE)))
    .orderBy(asc(competitionTeams.createdAt));
  return rows;
}

// ——— Organisers: the list, approval, the CSV ———

/** Every team of an event for its organisers and admins, with full names and e-mails. */
export async function listEventTeams(db: Db, actor: TeamActor, eventId: unknown) {
  assertMay(actor, "event.teams", { eventId: typeof eventId === "string" ? eventId : "" });
  if (!isUuid(eventId)) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const [event] = await db
    .select({ id: events.id, name: events.nombreEvento })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const rows = await db
    .select({
      team: competitionTeams,
      school: schools.name,
      categoryName: competitionCategories.name,
      category: competitionCategories,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .where(eq(competitionTeams.eventId, event.id))
    .orderBy(asc(competitionCategories.position), asc(competitionTeams.createdAt));
  const ids = rows.map((r) => r.team.id);
  const people =
    ids.length === 0
      ? []
      : await db
          .select({
            teamId: teamMembers.teamId,
            userId: teamMembers.userId,
            nombreCompleto: users.nombreCompleto,
            displayName: users.displayName,
            email: users.email,
            joinedAt: teamMembers.joinedAt,
          })
          .from(teamMembers)
          .innerJoin(users, eq(users.id, teamMembers.userId))
          .where(inArray(teamMembers.teamId, ids))
          .orderBy(asc(teamMembers.joinedAt));
  const coachIds = rows.flatMap((r) => (r.team.coachId ? [r.team.coachId] : []));
  const coaches =
    coachIds.length === 0
      ? []
      : await db
          .select({
            id: users.id,
            nombreCompleto: users.nombreCompleto,
            displayName: users.displayName,
            email: users.email,
          })
          .from(users)
          .where(inArray(users.id, coachIds));
  const paid = await paidTeams(db, ids);
  return {
    event,
    teams: rows.map(({ team, school, categoryName, category }) => {
      const members = people.filter((p) => p.teamId === team.id);
      const coach = coaches.find((c) => c.id === team.coachId);
      return {
        id: team.id,
        name: team.name,
        categoryName,
        school,
        city: team.city,
        robotName: team.robotName,
        status: team.status as TeamStatus,
        reviewReason: team.reviewReason,
        members: members.map((m) => ({
          name: fullName(m),
          email: m.email,
          captain: m.userId === team.captainId,
        })),
        coach: coach
          ? { name: fullName(coach), email: coach.email, confirmed: team.coachConfirmedAt !== null }
          : null,
        completeness: completeness(category, {
          members: members.length,
          coachConfirmed: team.coachConfirmedAt !== null,
          paid: paid.has(team.id),
        }),
        createdAt: team.createdAt,
      };
    }),
  };
}

/** 'Aprobar' or 'Rechazar' (with a reason): admins and the event's organisers; audited. */
export async function reviewTeam(
  db: Db,
  actor: TeamActor,
  eventId: unknown,
  teamId: unknown,
  decision: unknown,
  reason: unknown,
  now: Date,
  seen?: unknown,
) {
  const role = assertMay(actor, "event.teams", {
    eventId: typeof eventId === "string" ? eventId : "",
  });
  if (decision !== "aprobar" && decision !== "rechazar")
    throw new TeamError(TEAM_MESSAGES.decision);
  if (reason !== undefined && typeof reason !== "string")
    throw new TeamError(TEAM_MESSAGES.malformed);
  const why = (reason ?? "").trim();
  if (decision === "rechazar" && why === "") throw new TeamError(TEAM_MESSAGES.reasonMissing);
  if ([...why].length > TEAM_LIMITS.reasonMax) throw new TeamError(TEAM_MESSAGES.reasonTooLong);
  await db.transaction(async (tx) => {
    const { team, category, eventName } = await lockTeam(tx, teamId);
    if (team.eventId !== eventId) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
    // The team's state the organiser's screen showed (decision 064).
    if (seen !== undefined && (typeof seen !== "string" || !Object.hasOwn(TEAM_STATUS, seen)))
      throw new TeamError(TEAM_MESSAGES.seenMissing);
    if (seen !== undefined && team.status !== seen)
      throw new TeamError(teamChangedMeanwhile(team.status as TeamStatus), 409);
    if (team.status === "withdrawn") throw new TeamError(TEAM_MESSAGES.teamClosed, 409);
    // The coach's confirmation stands for the adults' consent for minors (point 3): no approval
    // without it where the category requires a coach.
    if (decision === "aprobar" && category.coachRequired && !team.coachConfirmedAt)
      throw new TeamError(TEAM_MESSAGES.approveNeedsCoach, 409);
    if (decision === "aprobar" && team.status === "waiting")
      throw new TeamError(TEAM_MESSAGES.waitingNotApproved, 409);
    if (
      decision === "aprobar" &&
      team.status === "rejected" &&
      (await placesLeft(tx, category)) === 0
    )
      throw new TeamError(TEAM_MESSAGES.full, 409);
    const status = decision === "aprobar" ? "approved" : "rejected";
    await tx
      .update(competitionTeams)
      .set({
        status,
        reviewReason: decision === "rechazar" ? why : null,
        reviewedAt: now,
        reviewedBy: actor!.id,
        reviewedByName: actor!.nombreCompleto?.trim() || actor!.displayName?.trim() || actor!.email,
        updatedAt: now,
      })
      .where(eq(competitionTeams.id, team.id));
    // A rejected team's place goes to the first team waiting.
    if (decision === "rechazar") await fillTeamPlaces(tx, category, now);
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: `competition.team.${decision === "aprobar" ? "approve" : "reject"}`,
      itemKind: "event",
      itemId: team.eventId,
      summary:
        decision === "aprobar"
          ? `Aprobó el equipo «${team.name}» en «${category.name}» de «${eventName}»`
          : `Rechazó el equipo «${team.name}» en «${category.name}» de «${eventName}»: ${why}`,
    });
  });
}

// ——— Schools ———

/** 'Unir': an admin merges a duplicate school into another; its teams move; audited. */
export async function mergeSchools(db: Db, actor: TeamActor, fromId: unknown, intoId: unknown) {
  const role = assertMay(actor, "schools.merge");
  if (!isUuid(fromId) || !isUuid(intoId)) throw new TeamError(TEAM_MESSAGES.schoolNotFound, 404);
  if (fromId === intoId) throw new TeamError(TEAM_MESSAGES.mergeSame);
  await db.transaction(async (tx) => {
    const found = await tx
      .select()
      .from(schools)
      .where(inArray(schools.id, [fromId, intoId]))
      .orderBy(asc(schools.id))
      .for("update");
    const from = found.find((s) => s.id === fromId);
    const into = found.find((s) => s.id === intoId);
    if (!from || !into) throw new TeamError(TEAM_MESSAGES.schoolNotFound, 404);
    const moved = await tx
      .update(competitionTeams)
      .set({ schoolId: into.id })
      .where(eq(competitionTeams.schoolId, from.id))
      .returning({ id: competitionTeams.id });
    await tx.delete(schools).where(eq(schools.id, from.id));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "competition.school.merge",
      itemKind: "school",
      itemId: into.id,
      summary: `Unió «${from.name}» en «${into.name}» (${moved.length} ${moved.length === 1 ? "equipo" : "equipos"})`,
    });
  });
}

/** The schools with how many teams name each, for the admins' page. */
export async function schoolsWithTeams(db: Db, actor: TeamActor) {
  assertMay(actor, "schools.merge");
  return db
    .select({
      id: schools.id,
      name: schools.name,
      teams: sql<number>`(select count(*)::int from ${competitionTeams} t where t.school_id = ${schools.id})`,
    })
    .from(schools)
    .orderBy(asc(sql`lower(${schools.name})`));
}

// ——— A member's account ———

/** The teams a member is in or coaches, for their data download. */
export async function teamsOfMember(db: Db, userId: string) {
  const mine = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  const rows = await db
    .select({
      team: competitionTeams,
      school: schools.name,
      categoryName: competitionCategories.name,
      eventName: events.nombreEvento,
      joinedAt: teamMembers.joinedAt,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .innerJoin(events, eq(events.id, competitionTeams.eventId))
    .leftJoin(
      teamMembers,
      and(eq(teamMembers.teamId, competitionTeams.id), eq(teamMembers.userId, userId)),
    )
    .where(
      sql`${competitionTeams.id} in (${mine}) or ${competitionTeams.coachId} = ${userId} or ${competitionTeams.captainId} = ${userId}`,
    )
    .orderBy(asc(competitionTeams.createdAt));
  return rows.map((r) => ({
    equipo: r.team.name,
    evento: r.eventName,
    categoria: r.categoryName,
    colegio: r.school,
    ciudad: r.team.city,
    robot: r.team.robotName,
    fotoRobot: r.team.robotPhoto,
    estado: TEAM_STATUS[r.team.status as TeamStatus],
    capitan: r.team.captainId === userId,
    entrenador: r.team.coachId === userId,
    entrenadorConfirmoEl:
      r.team.coachId === userId ? (r.team.coachConfirmedAt?.toISOString() ?? null) : null,
    integranteDesde: r.joinedAt?.toISOString() ?? null,
  }));
}

/** A person's place in a team of an event, as the event's participants list names it. */
export interface TeamPlace {
  teamId: string;
  team: string;
  category: string;
  coach: boolean;
  /** 'Aprobado', 'Pendiente de aprobación'…: a withdrawn team is not listed. */
  status: string;
}

/** In words: "«Los Cóndores» · Seguidor de línea", with the coach and the state when they matter. */
export function teamPlaceText(place: TeamPlace): string {
  const role = place.coach ? ", como entrenador" : "";
  const state = place.status === TEAM_STATUS.approved ? "" : ` (${place.status.toLowerCase()})`;
  return `«${place.team}» · ${place.category}${role}${state}`;
}

/**
 * The teams of an event each of its people is in (as a member or its coach), for the organisers'
 * participants list and its CSV: competitors are told apart from the audience. Withdrawn teams
 * are not listed. For whoever may see the event's participants.
 */
export async function teamsOfParticipants(
  db: Db,
  actor: TeamActor,
  eventId: string,
): Promise<Map<string, TeamPlace[]>> {
  assertMay(actor, "event.participants", { eventId });
  if (!isUuid(eventId)) return new Map();
  const teams = await db
    .select({
      id: competitionTeams.id,
      name: competitionTeams.name,
      status: competitionTeams.status,
      coachId: competitionTeams.coachId,
      category: competitionCategories.name,
      position: competitionCategories.position,
    })
    .from(competitionTeams)
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .where(and(eq(competitionTeams.eventId, eventId), ne(competitionTeams.status, "withdrawn")))
    .orderBy(asc(competitionCategories.position), asc(competitionTeams.name));
  const byPerson = new Map<string, TeamPlace[]>();
  if (teams.length === 0) return byPerson;
  const members = await db
    .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
    .from(teamMembers)
    .where(
      inArray(
        teamMembers.teamId,
        teams.map((t) => t.id),
      ),
    );
  const add = (userId: string, place: TeamPlace) =>
    byPerson.set(userId, [...(byPerson.get(userId) ?? []), place]);
  for (const team of teams) {
    const place = {
      teamId: team.id,
      team: team.name,
      category: team.category,
      status: TEAM_STATUS[team.status as TeamStatus],
    };
    for (const m of members) if (m.teamId === team.id) add(m.userId, { ...place, coach: false });
    if (team.coachId) add(team.coachId, { ...place, coach: true });
  }
  return byPerson;
}

/**
 * Before a member's account goes (inside deleteAccount's transaction): each team they captain
 * passes to its oldest other member, or is withdrawn when none is left; a team they coach loses
 * its coach's confirmation. Their member rows go with the account (foreign key).
 */
export async function handOverTeams(tx: Tx, userId: string, now: Date) {
  const captained = await tx
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(
      and(
        eq(competitionTeams.captainId, userId),
        notInArray(competitionTeams.status, ["withdrawn"]),
      ),
    )
    .orderBy(asc(competitionTeams.id));
  for (const { id } of captained) {
    const { team, category } = await lockTeam(tx, id);
    const [next] = await tx
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), ne(teamMembers.userId, userId)))
      .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId))
      .limit(1);
    if (next) {
      await tx
        .update(competitionTeams)
        .set({ captainId: next.userId, updatedAt: now })
        .where(eq(competitionTeams.id, team.id));
      // The team's fee is paid by its captain: the payment, its record, passes on too.
      await tx
        .update(payments)
        .set({ userId: next.userId })
        .where(and(eq(payments.subjectKind, "team"), eq(payments.teamId, team.id)));
    } else await withdraw(tx, team.id, category, now);
  }
  await tx
    .update(competitionTeams)
    .set({ coachId: null, coachConfirmedAt: null, updatedAt: now })
    .where(eq(competitionTeams.coachId, userId));
}

/** Whether a category has teams (any state): then it cannot be deleted. */
export async function categoryHasTeams(tx: Db, categoryId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(eq(competitionTeams.categoryId, categoryId))
    .limit(1);
  return row !== undefined;
}

/** A team's name (for its fee's payment page), or null. */
export async function teamName(db: Db, teamId: string): Promise<string | null> {
  if (!isUuid(teamId)) return null;
  const [row] = await db
    .select({ name: competitionTeams.name })
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  return row?.name ?? null;
}

/** Locks a team's category and withdraws it (a fee's hold ran out, app/payments/expiry.server.ts). */
export async function withdrawForUnpaidFee(tx: Tx, teamId: string, now: Date) {
  const { team, category } = await lockTeam(tx, teamId);
  if (team.status === "withdrawn") return;
  await withdraw(tx, team.id, category, now);
}

/** Locks the category of a team (before its payment's row: the order of every team change). */
export async function lockTeamCategory(tx: Tx, teamId: string) {
  await lockTeam(tx, teamId).catch((error: unknown) => {
    if (!(error instanceof TeamError)) throw error;
  });
}
