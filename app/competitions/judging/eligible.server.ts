// Which teams of a category may have results: the one rule every entry, draw and ranking asks.
// A team competes when it is approved, checked in at the door and its robot passed its latest
// inspection (decision 055, app/competitions/door.server.ts).
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { competitionTeams } from "~/db/schema.server";
import { competes } from "../door.server";

/** The ids of the teams that compete in a category, oldest registration first. */
export async function teamsInPlay(db: Db, categoryId: string): Promise<string[]> {
  const rows = await db
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(and(eq(competitionTeams.categoryId, categoryId), competes))
    .orderBy(asc(competitionTeams.createdAt), asc(competitionTeams.id));
  return rows.map((r) => r.id);
}
