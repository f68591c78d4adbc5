// What a team's people and its organisers do (docs/decisions/052-teams.md). A member creates a
// team and is its captain; others join with the team's invitation; an adult confirms as its coach;
// admins and the event's organisers approve or reject it. Every change checks who asks (the
// permissions module for organisers; membership for the team's own people), locks the category
// (team-places.server.ts) and refuses after the category's registration deadline.
import { randomBytes } from "node:crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  competitionTeams,
  teamInvitations,
  teamMembers,
  users,
  type CompetitionTeam,
} from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { isUuid } from "~/kernel/checks";
import { zonedDateTime } from "~/kernel/time";
import { assertMay } from "~/kernel/permissions";
import { holdTeamFee } from "~/payments/hold.server";
import { schoolId } from "./schools.server";
import {
  fillTeamPlaces,
  firstWaiting,
  isClosed,
  lockCategory,
  lockTeam,
  placesLeft,
  signedIn,
  TeamError,
  withdraw,
  type TeamActor,
} from "./team-places.server";
import { findInvitation } from "./team-views.server";
import {
  TEAM_LIMITS,
  TEAM_MESSAGES,
  TEAM_STATUS,
  teamChangedMeanwhile,
  type TeamFormValues,
  type TeamStatus,
} from "./teams";

export interface TeamInput {
  name: string;
  school: string;
  city: string;
  robotName: string;
}

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

// ——— Organisers: approval ———

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
    // The coach's confirmation stands for the adults' consent for minors (decision 052): no
    // approval without it where the category requires a coach.
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
