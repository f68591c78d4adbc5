// What other domains ask of teams (docs/decisions/052-teams.md): a member's teams for their data
// download and their account's deletion, the teams of an event's participants, whether a category
// has teams, a team's name for its fee's page, and the fee's expiry that withdraws a team.
import { and, asc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  competitionCategories,
  competitionTeams,
  events,
  payments,
  schools,
  teamMembers,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { assertMay } from "~/kernel/permissions";
import { lockTeam, TeamError, withdraw, type TeamActor } from "./team-places.server";
import { TEAM_STATUS, type TeamStatus } from "./teams";

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

/** Locks a team's category and withdraws it (a fee's hold ran out, app/hold-expiry.server.ts). */
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
