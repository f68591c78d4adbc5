// Makes approved teams compete as the door would (decision 055): each has a member, every member
// and its coach are checked in (a participation without a seat where they had none) and the robot
// passed its latest inspection. For tests of what comes after the door: judging and results.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  competitionTeams,
  participations,
  teamInspections,
  teamMembers,
  users,
} from "~/db/schema.server";

export async function makeCompete(db: Db, teamIds: readonly string[]): Promise<void> {
  for (const teamId of teamIds) {
    const [team] = await db
      .select({
        eventId: competitionTeams.eventId,
        categoryId: competitionTeams.categoryId,
        coachId: competitionTeams.coachId,
      })
      .from(competitionTeams)
      .where(eq(competitionTeams.id, teamId));
    if (!team) throw new Error(`No such team: ${teamId}`);
    let members = await db
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(eq(teamMembers.teamId, teamId));
    if (members.length === 0) {
      const [someone] = await db
        .insert(users)
        .values({
          issuer: "https://equipo.invalid",
          subject: randomUUID(),
          email: `integrante-${randomUUID()}@example.com`,
          emailVerified: true,
          nombreCompleto: "Integrante Prueba",
        })
        .returning({ id: users.id });
      await db
        .insert(teamMembers)
        .values({ teamId, userId: someone!.id, categoryId: team.categoryId });
      members = [{ userId: someone!.id }];
    }
    const people = [...members.map((m) => m.userId), ...(team.coachId ? [team.coachId] : [])];
    for (const userId of people)
      await db
        .insert(participations)
        .values({ userId, eventId: team.eventId, seat: false, checkedInAt: new Date() })
        .onConflictDoUpdate({
          target: [participations.userId, participations.eventId],
          set: { checkedInAt: sql`coalesce(${participations.checkedInAt}, now())` },
        });
    await db
      .insert(teamInspections)
      .values({ teamId, result: "passed", inspectedByName: "Pedro Puerta" });
  }
}
