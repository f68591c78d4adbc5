// What the pages read of teams (docs/decisions/052-teams.md): the category a new team registers
// in, the team an invitation opens, a team's page as its viewer may see it, the public list and
// the organisers' list, with what makes a team complete.
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
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
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { assertMay, may } from "~/kernel/permissions";
import { LEVELS, type Level } from "./categories";
import { LIVE, TeamError, type TeamActor } from "./team-places.server";
import {
  INVITATION_CODE,
  normaliseInvitationCode,
  publicName,
  TEAM_MESSAGES,
  TEAM_STATUS,
  type TeamStatus,
} from "./teams";

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

/** What makes a team complete (decision 052): its members, a coach where required, its fee paid. */
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
 * admins) read full names and the invitation; anyone else reads competitors as 'Ana Q.'
 * (decision 052), never an e-mail or a birth date.
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
 * The teams of an event's categories as the public sees them (decision 052): names of competitors
 * as 'Ana Q.', the team, school and city; withdrawn and rejected teams are not shown.
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
