// The results pages of a competition (issue 39, decision 058): every category's results, read
// from the stored entries by the judging domain. Public and without personal data, so visitors'
// copies come from the page cache; the live stream sends the same data as it changes.
import { asc, eq } from "drizzle-orm";
import { data, type AppLoadContext } from "react-router";
import { competitionCategories, events } from "~/db/schema.server";
import { categoryResults, type CategoryResults } from "~/competitions/judging/results.server";
import { isUuid } from "~/kernel/checks";
import { notFound } from "~/kernel/not-found";

export const RESULTS_MESSAGES = {
  notFound: "Competencia no encontrada.",
} as const;

export async function loadResults(eventId: string, context: AppLoadContext) {
  if (!isUuid(eventId)) notFound(RESULTS_MESSAGES.notFound);
  const [event] = await context.db
    .select({ id: events.id, name: events.nombreEvento })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) notFound(RESULTS_MESSAGES.notFound);
  const categories = await context.db
    .select({ id: competitionCategories.id })
    .from(competitionCategories)
    .where(eq(competitionCategories.eventId, event.id))
    .orderBy(asc(competitionCategories.position), asc(competitionCategories.createdAt));
  if (categories.length === 0) notFound(RESULTS_MESSAGES.notFound);
  const results: CategoryResults[] = [];
  for (const c of categories) {
    const one = await categoryResults(context.db, c.id);
    if (one) results.push(one);
  }
  return data({ event, results });
}
