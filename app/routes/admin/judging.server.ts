// The organisers' screen of one category on competition day
// (/admin/eventos/:eventId/categorias/:categoryId/resultados; decision 060): how it is
// judged, the bracket's draw or seeding, the entries in conflict, final and reopen, and the
// certificates by place once final. Every change goes through the judging domain, which checks
// the permission and writes the audit log.
import { data, type AppLoadContext } from "react-router";
import { categoryById } from "~/competitions/categories.server";
import type { Format } from "~/competitions/categories";
import { awardsOf } from "~/competitions/judging/awards.server";
import { JudgingError } from "~/competitions/judging/category.server";
import { hasRounds, hasSheets } from "~/competitions/judging/entries.server";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import {
  drawBracket,
  judgingState,
  listConflicts,
  markFinal,
  reopenCategory,
  resolveConflict,
  seedBracket,
  currentSeeding,
  setJudgingRules,
} from "~/competitions/judging/organise.server";
import { categoryResults } from "~/competitions/judging/results.server";
import { TIE_RULES } from "~/competitions/judging/rules";
import { SHEET_LIMITS } from "~/competitions/judging/score-sheet";
import { RUN_LIMITS } from "~/competitions/judging/time-trial";
import { redirectWithFlash } from "~/flash.server";
import type { SessionUser } from "~/guards.server";
import { Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { formatDateTime } from "~/kernel/time";
import type { MessageKey } from "~/messages";

export async function loadJudging(
  user: SessionUser,
  eventId: string,
  categoryId: string,
  context: AppLoadContext,
) {
  const { db } = context;
  const results = await categoryResults(db, categoryId);
  if (!results || results.category.eventId !== eventId) notFound(JUDGING_MESSAGES.categoryNotFound);
  const id = results.category.id;
  const { state, draw } = await judgingState(db, id);
  const timeZone = context.config.siteTimezone;
  const format: Format = results.category.format;
  // Read without locking the category: judges' entries go on while the page is open.
  const conflicts = await listConflicts(db, user, id, { lock: false });
  // The seeding names the teams competing now, in the draw's order where they were drawn.
  const seeding = format === "llaves" ? await currentSeeding(db, id, draw?.teamIds ?? []) : [];
  const awards = await awardsOf(db, id, results);
  return data(
    {
      results,
      final: state?.finalAt
        ? {
            at: formatDateTime(state.finalAt, timeZone),
            by: state.finalBy ?? "",
            // What 'Reabrir' names as the final its screen showed (decision 064).
            seen: state.finalAt.toISOString(),
          }
        : null,
      tieRules: Object.entries(TIE_RULES[format] as Record<string, { label: string }>).map(
        ([value, rule]) => ({ value, label: rule.label }),
      ),
      attemptsMax: RUN_LIMITS.attemptsMax,
      criteriaMax: SHEET_LIMITS.criteriaMax,
      criterionNameMax: SHEET_LIMITS.criterionNameMax,
      pointsMax: SHEET_LIMITS.pointsMax,
      criteriaLocked: format === "puntaje" && (await hasSheets(db, id)),
      drawLocked: format === "llaves" && (await hasRounds(db, id)),
      draw: draw
        ? {
            method: draw.method,
            seed: draw.seed,
            by: draw.madeByName,
            at: formatDateTime(draw.madeAt, timeZone),
          }
        : null,
      seeding,
      conflicts: conflicts.map((c) => ({ ...c, enteredAt: formatDateTime(c.enteredAt, timeZone) })),
      awards,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export type JudgingIntent = "reglas" | "sortear" | "sembrar" | "decidir" | "final" | "reabrir";
export type JudgingReply = { message: string; intent: JudgingIntent | null; conflictId?: string };

const INTENTS: readonly JudgingIntent[] = [
  "reglas",
  "sortear",
  "sembrar",
  "decidir",
  "final",
  "reabrir",
];

/** The one value of a field sent at most once; a field sent twice is a malformed form. */
function one(form: FormData, name: string): FormDataEntryValue | undefined {
  const values = form.getAll(name);
  if (values.length > 1) throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
  return values[0];
}

/** The criteria as typed: rows of name and maximum, the blank ones skipped. */
function criteriaOf(form: FormData) {
  const names = form.getAll("criterio");
  const maxes = form.getAll("maximo");
  // None sent: the criteria stay as they are (their fields are closed once sheets exist).
  if (names.length === 0 && maxes.length === 0) return undefined;
  if (names.length !== maxes.length || names.length > SHEET_LIMITS.criteriaMax + 10)
    throw new JudgingError(JUDGING_MESSAGES.criteriaInvalid);
  const rows: { name: string; max: number }[] = [];
  names.forEach((name, i) => {
    const max = maxes[i];
    if (typeof name !== "string" || typeof max !== "string")
      throw new JudgingError(JUDGING_MESSAGES.criteriaInvalid);
    if (name.trim() === "" && max.trim() === "") return;
    rows.push({ name, max: /^\d{1,4}$/.test(max.trim()) ? Number(max.trim()) : NaN });
  });
  return rows;
}

/** The seeding as typed: each team with its position; the order by position, each once. */
function seedingOf(form: FormData): string[] {
  const teams = form.getAll("equipo");
  const positions = form
    .getAll("posicion")
    .map((p) => (typeof p === "string" && /^\d{1,3}$/.test(p.trim()) ? Number(p.trim()) : NaN));
  const n = teams.length;
  if (
    n === 0 ||
    positions.length !== n ||
    new Set(positions).size !== n ||
    !positions.every((p) => Number.isInteger(p) && p >= 1 && p <= n)
  )
    throw new JudgingError(JUDGING_MESSAGES.seedsNotTeams);
  const order: unknown[] = new Array(n);
  teams.forEach((team, i) => (order[positions[i]! - 1] = team));
  return order as string[];
}

export async function judgingAction(
  eventId: string,
  categoryId: string,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const { db } = context;
  const intent = form.get("intent");
  const known = INTENTS.find((i) => i === intent) ?? null;
  const page = `/admin/eventos/${eventId}/categorias/${categoryId}/resultados`;
  const done = (key: MessageKey, anchor: string) =>
    redirectWithFlash(context, `${page}#${anchor}`, key);
  try {
    // The category must be this event's: the permission was checked for the event in the URL.
    if (form.getAll("intent").length !== 1) throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    const category = await categoryById(db, categoryId);
    if (!category || category.eventId !== eventId)
      throw new JudgingError(JUDGING_MESSAGES.categoryNotFound, 404);
    const now = context.now();
    switch (known) {
      case "reglas": {
        const format = category.format;
        await setJudgingRules(db, user, categoryId, {
          tieRule: one(form, "desempate"),
          attempts: format === "tiempo" ? one(form, "vueltas") : undefined,
          criteria: format === "puntaje" ? criteriaOf(form) : undefined,
        });
        return done("judgingRulesSaved", "como-se-juzga");
      }
      case "sortear":
        await drawBracket(db, user, categoryId, now);
        return done("bracketDrawn", "llaves");
      case "sembrar":
        await seedBracket(db, user, categoryId, seedingOf(form), now);
        return done("bracketSeeded", "llaves");
      case "decidir": {
        const decision = one(form, "decision");
        await resolveConflict(
          db,
          user,
          categoryId,
          { kind: one(form, "tipo"), id: one(form, "conflicto"), decision },
          now,
        );
        return done(decision === "aceptar" ? "conflictAccepted" : "conflictKept", "conflictos");
      }
      case "final":
        await markFinal(db, user, categoryId, now);
        return done("categoryMadeFinal", "final");
      case "reabrir":
        await reopenCategory(db, user, categoryId, form.get("visto") ?? "");
        return done("categoryReopened", "final");
      default:
        throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const conflictId = form.get("conflicto");
    return data<JudgingReply>(
      {
        message: error.message,
        intent: known,
        conflictId: typeof conflictId === "string" ? conflictId : undefined,
      },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
}
