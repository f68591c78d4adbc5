// Competitors at the door (docs/decisions/055-door-and-inspection.md): the members of an approved
// team and its confirmed coach have a pass to the event as its participants do, derived from their
// team and never stored. The door checks them in with it ('Mis entradas' shows it); the teams
// themselves are the competitions domain's.
import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { competitionTeams, events, users } from "~/db/schema.server";

/**
 * The ids of an event's competitors now, as SQL for `x in (…)`: the members of its approved teams
 * and their coaches who confirmed. A team rejected or withdrawn, a member who left and a coach
 * removed are out at once: the pass is derived, never stored.
 */
export function competitorIds(eventId: string): SQL {
  return sql`(select cm.user_id from team_members cm
      join competition_teams ct on ct.id = cm.team_id
      where ct.event_id = ${eventId}::uuid and ct.status = 'approved'
    union
    select cc.coach_id from competition_teams cc
      where cc.event_id = ${eventId}::uuid and cc.status = 'approved'
        and cc.coach_id is not null and cc.coach_confirmed_at is not null)`;
}

/** Whether the person is a competitor of the event now (their pass opens the door). */
export async function isCompetitor(db: Db, eventId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), sql`${users.id} in ${competitorIds(eventId)}`))
    .limit(1);
  return row !== undefined;
}

/**
 * The events not ended where the member competes and has no participation yet, with their teams'
 * names: 'Mis entradas' shows a pass for each.
 */
export async function competitorEvents(db: Db, userId: string, now: Date) {
  const rows = await db
    .select({ eventId: competitionTeams.eventId, team: competitionTeams.name })
    .from(competitionTeams)
    .innerJoin(events, eq(events.id, competitionTeams.eventId))
    .where(
      and(
        eq(competitionTeams.status, "approved"),
        sql`${events.endsAt} > ${now.toISOString()}::timestamptz`,
        sql`(exists (select 1 from team_members em where em.team_id = ${competitionTeams.id}
              and em.user_id = ${userId}::uuid)
            or (${competitionTeams.coachId} = ${userId}::uuid
              and ${competitionTeams.coachConfirmedAt} is not null))`,
      ),
    )
    .orderBy(asc(competitionTeams.name));
  const teams = new Map<string, string[]>();
  for (const row of rows) teams.set(row.eventId, [...(teams.get(row.eventId) ?? []), row.team]);
  return teams;
}
