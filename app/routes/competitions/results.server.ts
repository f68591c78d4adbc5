// The results pages of a competition (decision 058): every category's results, read
// from the stored entries by the judging domain. Public and without personal data, so visitors'
// copies come from the page cache; the live stream sends the same data as it changes.
import { data, type AppLoadContext } from "react-router";
import { competitionResults } from "~/competitions/judging/results.server";
import { notFound } from "~/kernel/not-found";

export const RESULTS_MESSAGES = {
  notFound: "Competencia no encontrada.",
} as const;

export async function loadResults(eventId: string, context: AppLoadContext) {
  const competition = await competitionResults(context.db, eventId);
  if (!competition) notFound(RESULTS_MESSAGES.notFound);
  return data(competition);
}
