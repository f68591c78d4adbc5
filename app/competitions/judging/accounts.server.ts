// Before a member's account goes (inside deleteAccount's transaction): the results they entered,
// decided, drew or marked final stay — they are the competition's — under 'cuenta eliminada'
// (their ids are set to null by the foreign keys as the row goes).
import { and, eq } from "drizzle-orm";
import {
  bracketDraws,
  bracketRounds,
  competitionCategories,
  judgingRuns,
  scoreSheets,
} from "~/db/schema.server";
import type { Tx } from "~/db/client.server";

export async function forgetInResults(tx: Tx, userId: string, deletedName: string) {
  // A judge's sheets waiting for the organisers' decision go as rejected: the first sheet stands,
  // as it would have, and no two sheets without a judge are left to be told apart.
  await tx
    .update(scoreSheets)
    .set({ state: "rejected", decidedByName: deletedName, decidedAt: new Date() })
    .where(and(eq(scoreSheets.judgeId, userId), eq(scoreSheets.state, "conflict")));
  for (const table of [judgingRuns, bracketRounds, scoreSheets]) {
    await tx.update(table).set({ enteredByName: deletedName }).where(eq(table.enteredBy, userId));
    await tx.update(table).set({ decidedByName: deletedName }).where(eq(table.decidedBy, userId));
  }
  await tx
    .update(scoreSheets)
    .set({ judgeName: deletedName })
    .where(eq(scoreSheets.judgeId, userId));
  await tx
    .update(bracketDraws)
    .set({ madeByName: deletedName })
    .where(eq(bracketDraws.madeBy, userId));
  await tx
    .update(competitionCategories)
    .set({ finalByName: deletedName })
    .where(eq(competitionCategories.finalBy, userId));
}
