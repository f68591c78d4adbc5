// The door of a competition (docs/decisions/055-door-and-inspection.md). Competitors — the members
// of an approved team and its confirmed coach — have a pass to the event as its participants do,
// derived from their team: the door checks them in with it, and a participation that takes no
// seat records it. A team is checked in when its members are (and its coach, where the category
// needs one). Door staff and organisers record each robot's inspection (homologación), passed or
// failed with notes, until its category starts; the latest decides. `competingTeams` says who
// competes: approved, checked in, robot passed.
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  competitionCategories,
  competitionTeams,
  events,
  participations,
  schools,
  teamInspections,
  teamMembers,
  users,
} from "~/db/schema.server";
import { recordAudit } from "~/audit/audit.server";
import { eventScope } from "~/events/event.server";
import { isUuid } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";
import { assertMay } from "~/kernel/permissions";
import {
  INSPECTION_LIMITS,
  INSPECTION_MESSAGES,
  INSPECTION_RESULTS,
  type InspectionResult,
  type TeamAtDoor,
} from "./door";
import { lockTeamCategory } from "./team-hooks.server";
import { type TeamActor } from "./team-places.server";

/** A refused inspection: the message is the one door staff read (Spanish). */
export class DoorError extends Refusal {
  override name = "DoorError";
  constructor(message: string, status: 400 | 404 | 409 = 400) {
    super(message, status);
  }
}

// ——— A team at the door ———

/**
 * Whether the team of the query's `competition_teams` row is checked in: it has members and each
 * came through the door (any session), and so did its confirmed coach where the category needs
 * one. The coach of a category without that need is checked in on their own and does not count.
 */
const teamCheckedIn = sql<boolean>`(
  exists (select 1 from team_members dm where dm.team_id = ${competitionTeams.id})
  and not exists (select 1 from team_members dm where dm.team_id = ${competitionTeams.id}
    and not exists (select 1 from participations dp
      where dp.event_id = ${competitionTeams.eventId} and dp.user_id = dm.user_id
        and dp.checked_in_at is not null))
  and (not (select dc.coach_required from competition_categories dc
      where dc.id = ${competitionTeams.categoryId})
    or (${competitionTeams.coachConfirmedAt} is not null and exists (select 1 from participations dp
      where dp.event_id = ${competitionTeams.eventId} and dp.user_id = ${competitionTeams.coachId}
        and dp.checked_in_at is not null))))`;

/** The result of the team's latest inspection, or null before its first. */
const latestResult = sql<InspectionResult | null>`(select di.result from team_inspections di
  where di.team_id = ${competitionTeams.id} order by di.created_at desc, di.id desc limit 1)`;

/** A team that competes: approved, checked in, and its robot passed its latest inspection. */
export const competes = sql<boolean>`(${competitionTeams.status} = 'approved' and ${teamCheckedIn}
  and coalesce(${latestResult} = 'passed', false))`;

/**
 * The teams of a category that compete now (decision 055): approved, checked in at the door,
 * and their robot's latest inspection passed. By name; none for an id that is not a category's.
 * The judging screens draw brackets and take entries from this list only.
 */
export async function competingTeams(
  db: Db,
  categoryId: unknown,
): Promise<Array<{ id: string; name: string; school: string; robotName: string }>> {
  if (!isUuid(categoryId)) return [];
  return db
    .select({
      id: competitionTeams.id,
      name: competitionTeams.name,
      school: schools.name,
      robotName: competitionTeams.robotName,
    })
    .from(competitionTeams)
    .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
    .where(and(eq(competitionTeams.categoryId, categoryId), competes))
    .orderBy(asc(sql`lower(${competitionTeams.name})`), asc(competitionTeams.id));
}

/** Whether one team competes now (the rule of `competingTeams`); false for an unknown id. */
export async function teamCompetes(db: Db, teamId: unknown): Promise<boolean> {
  if (!isUuid(teamId)) return false;
  const [row] = await db
    .select({ competes })
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  return row?.competes === true;
}

/** The moment a category starts: its own, else its event's. Inspections close then. */
const categoryStart = sql<Date>`coalesce(${competitionCategories.startsAt}, ${events.startsAt})`;

/**
 * A team's state at the door for its own page (its members, its coach, the organisers): how many
 * of those who count are checked in, the latest inspection with its notes, whether it competes.
 * Null for a team not approved (it has no door yet).
 */
export async function teamAtDoor(db: Db, teamId: string): Promise<TeamAtDoor | null> {
  const [row] = await db
    .select({
      status: competitionTeams.status,
      eventId: competitionTeams.eventId,
      coachId: competitionTeams.coachId,
      coachConfirmedAt: competitionTeams.coachConfirmedAt,
      coachRequired: competitionCategories.coachRequired,
      teamCheckedIn,
      competes,
    })
    .from(competitionTeams)
    .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
    .where(eq(competitionTeams.id, teamId));
  if (!row || row.status !== "approved") return null;
  const people = (
    await db
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, teamId))
  ).map((m) => m.userId);
  if (row.coachRequired && row.coachId && row.coachConfirmedAt) people.push(row.coachId);
  const inside =
    people.length === 0
      ? []
      : await db
          .select({ userId: participations.userId })
          .from(participations)
          .where(
            and(
              eq(participations.eventId, row.eventId),
              inArray(participations.userId, people),
              sql`${participations.checkedInAt} is not null`,
            ),
          );
  const [latest] = await db
    .select({
      result: teamInspections.result,
      notes: teamInspections.notes,
      at: teamInspections.createdAt,
    })
    .from(teamInspections)
    .where(eq(teamInspections.teamId, teamId))
    .orderBy(desc(teamInspections.createdAt), desc(teamInspections.id))
    .limit(1);
  return {
    checkedIn: inside.length,
    expected: people.length + (row.coachRequired && !row.coachConfirmedAt ? 1 : 0),
    teamCheckedIn: row.teamCheckedIn,
    inspection: latest
      ? {
          result: latest.result as InspectionResult,
          notes: latest.notes,
          at: latest.at.toISOString(),
        }
      : null,
    competes: row.competes,
  };
}

// ——— The inspection screen ———

/**
 * The inspection screen of a competition for door staff (within their window) and organisers:
 * each category (with when it starts and whether inspections are still open) and its approved
 * teams, each with its members' and coach's check-in, whether the team is checked in, its
 * inspections (newest first) and whether it competes. Null: no such event.
 */
export async function doorBoard(db: Db, actor: TeamActor, eventId: unknown, now: Date) {
  assertMay(
    actor,
    "event.inspect",
    (await eventScope(db, eventId, now)) ?? { eventId: String(eventId), now },
  );
  if (!isUuid(eventId)) return null;
  const [event] = await db
    .select({ id: events.id, name: events.nombreEvento, startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) return null;
  const [categories, teams, people, inspections] = await Promise.all([
    db
      .select({
        id: competitionCategories.id,
        name: competitionCategories.name,
        coachRequired: competitionCategories.coachRequired,
        startsAt: categoryStart,
      })
      .from(competitionCategories)
      .innerJoin(events, eq(events.id, competitionCategories.eventId))
      .where(eq(competitionCategories.eventId, eventId))
      .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt)),
    db
      .select({
        id: competitionTeams.id,
        categoryId: competitionTeams.categoryId,
        name: competitionTeams.name,
        school: schools.name,
        robotName: competitionTeams.robotName,
        coachId: competitionTeams.coachId,
        coachConfirmed: sql<boolean>`${competitionTeams.coachConfirmedAt} is not null`,
        checkedIn: teamCheckedIn,
        competes,
      })
      .from(competitionTeams)
      .innerJoin(schools, eq(schools.id, competitionTeams.schoolId))
      .where(and(eq(competitionTeams.eventId, eventId), eq(competitionTeams.status, "approved")))
      .orderBy(asc(sql`lower(${competitionTeams.name})`), asc(competitionTeams.id)),
    // Members and coaches of the event's approved teams, with their first check-in.
    db
      .select({
        userId: users.id,
        name: sql<string>`coalesce(nullif(trim(${users.nombreCompleto}), ''), nullif(trim(${users.displayName}), ''), 'Integrante')`,
        checkedInAt: participations.checkedInAt,
      })
      .from(users)
      .leftJoin(
        participations,
        and(eq(participations.userId, users.id), eq(participations.eventId, eventId)),
      )
      .where(
        sql`${users.id} in (select tm.user_id from team_members tm
            join competition_teams tt on tt.id = tm.team_id
            where tt.event_id = ${eventId}::uuid and tt.status = 'approved'
          union select tc.coach_id from competition_teams tc
            where tc.event_id = ${eventId}::uuid and tc.status = 'approved'
              and tc.coach_id is not null)`,
      ),
    db
      .select({
        id: teamInspections.id,
        teamId: teamInspections.teamId,
        result: teamInspections.result,
        notes: teamInspections.notes,
        by: teamInspections.inspectedByName,
        at: teamInspections.createdAt,
      })
      .from(teamInspections)
      .innerJoin(competitionTeams, eq(competitionTeams.id, teamInspections.teamId))
      .where(eq(competitionTeams.eventId, eventId))
      .orderBy(desc(teamInspections.createdAt), desc(teamInspections.id)),
  ]);
  const members =
    teams.length === 0
      ? []
      : await db
          .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
          .from(teamMembers)
          .where(
            inArray(
              teamMembers.teamId,
              teams.map((t) => t.id),
            ),
          )
          .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  const person = new Map(people.map((p) => [p.userId, p]));
  const shown = (userId: string) => {
    const p = person.get(userId);
    return { name: p?.name ?? "Integrante", checkedInAt: p?.checkedInAt ?? null };
  };
  return {
    event,
    categories: categories.map((c) => {
      const startsAt = new Date(c.startsAt);
      return {
        id: c.id,
        name: c.name,
        coachRequired: c.coachRequired,
        startsAt,
        open: now.getTime() < startsAt.getTime(),
        teams: teams
          .filter((t) => t.categoryId === c.id)
          .map((t) => ({
            id: t.id,
            name: t.name,
            school: t.school,
            robotName: t.robotName,
            checkedIn: t.checkedIn,
            competes: t.competes,
            members: members.filter((m) => m.teamId === t.id).map((m) => shown(m.userId)),
            coach: t.coachId ? { ...shown(t.coachId), confirmed: t.coachConfirmed } : null,
            inspections: inspections
              .filter((i) => i.teamId === t.id)
              .map((i) => ({ ...i, result: i.result as InspectionResult })),
          })),
      };
    }),
  };
}

export type DoorBoard = NonNullable<Awaited<ReturnType<typeof doorBoard>>>;

/** The inspection form as sent: the result, and notes (required when the robot failed). */
export function parseInspection(result: unknown, notes: unknown) {
  if (typeof result !== "string" || !Object.hasOwn(INSPECTION_RESULTS, result))
    throw new DoorError(INSPECTION_MESSAGES.result);
  if (notes !== undefined && typeof notes !== "string")
    throw new DoorError(INSPECTION_MESSAGES.malformed);
  const text = (notes ?? "").replace(/\r\n?/g, "\n").trim();
  if ([...text].length > INSPECTION_LIMITS.notesMax)
    throw new DoorError(INSPECTION_MESSAGES.notesTooLong);
  if (result === "failed" && text === "") throw new DoorError(INSPECTION_MESSAGES.notesMissing);
  return { result: result as InspectionResult, notes: text };
}

/**
 * Records one inspection of an approved team's robot: door staff within their window, the
 * event's organisers and admins; until the team's category starts. A failed robot may be
 * inspected again, and a passed one too (a robot changed after it passed); every try is kept
 * and the latest decides. Audited.
 */
export async function recordInspection(
  db: Db,
  actor: TeamActor,
  eventId: unknown,
  teamId: unknown,
  fields: { result: unknown; notes: unknown },
  now: Date,
): Promise<InspectionResult> {
  const role = assertMay(
    actor,
    "event.inspect",
    (await eventScope(db, eventId, now)) ?? { eventId: String(eventId), now },
  );
  const { result, notes } = parseInspection(fields.result, fields.notes);
  if (!isUuid(eventId) || !isUuid(teamId))
    throw new DoorError(INSPECTION_MESSAGES.teamNotFound, 404);
  return db.transaction(async (tx: Tx) => {
    // The category's row first, as every change of a team takes it: a review or a withdrawal
    // of the same team waits for this inspection, or this one for it.
    await lockTeamCategory(tx, teamId);
    const [team] = await tx
      .select({
        id: competitionTeams.id,
        name: competitionTeams.name,
        robotName: competitionTeams.robotName,
        eventId: competitionTeams.eventId,
        status: competitionTeams.status,
        categoryName: competitionCategories.name,
        startsAt: categoryStart,
      })
      .from(competitionTeams)
      .innerJoin(competitionCategories, eq(competitionCategories.id, competitionTeams.categoryId))
      .innerJoin(events, eq(events.id, competitionTeams.eventId))
      .where(eq(competitionTeams.id, teamId));
    if (!team || team.eventId !== eventId)
      throw new DoorError(INSPECTION_MESSAGES.teamNotFound, 404);
    if (team.status !== "approved") throw new DoorError(INSPECTION_MESSAGES.notApproved, 409);
    if (now.getTime() >= new Date(team.startsAt).getTime())
      throw new DoorError(INSPECTION_MESSAGES.started, 409);
    await tx.insert(teamInspections).values({
      teamId: team.id,
      result,
      notes,
      inspectedBy: actor!.id,
      inspectedByName: actor!.nombreCompleto?.trim() || actor!.displayName?.trim() || actor!.email,
      // The latest decides: a second try recorded in the same instant still comes after.
      createdAt: sql`greatest(${now.toISOString()}::timestamptz, (select max(created_at)
        + interval '1 millisecond' from team_inspections where team_id = ${team.id}::uuid))`,
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "competition.team.inspect",
      itemKind: "event",
      itemId: team.eventId,
      summary:
        `Inspeccionó el robot «${team.robotName}» del equipo «${team.name}» en «${team.categoryName}»: ` +
        (result === "passed" ? "aprobado" : `no aprobado (${notes})`) +
        (result === "passed" && notes ? ` (${notes})` : ""),
    });
    return result;
  });
}

// ——— A member's account ———

/** The inspections of the teams a member is in or coaches, for their data download. */
export async function inspectionsOfMember(db: Db, userId: string) {
  const rows = await db
    .select({
      team: competitionTeams.name,
      robot: competitionTeams.robotName,
      result: teamInspections.result,
      notes: teamInspections.notes,
      at: teamInspections.createdAt,
    })
    .from(teamInspections)
    .innerJoin(competitionTeams, eq(competitionTeams.id, teamInspections.teamId))
    .where(
      sql`(exists (select 1 from team_members im where im.team_id = ${competitionTeams.id}
        and im.user_id = ${userId}::uuid) or ${competitionTeams.coachId} = ${userId}::uuid)`,
    )
    .orderBy(asc(teamInspections.createdAt), asc(teamInspections.id));
  // The inspector's name stays out: it is staff's, not the member's.
  return rows.map((r) => ({
    equipo: r.team,
    robot: r.robot,
    resultado: INSPECTION_RESULTS[r.result as InspectionResult],
    notas: r.notes,
    fecha: r.at.toISOString(),
  }));
}
