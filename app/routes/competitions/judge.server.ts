// What the judge's screen (/admin/eventos/:eventId/jurado/:categoryId, decision 059) and its data
// route share: who may open it, the category's state for them, and one entry read from a form —
// posted by the page without JavaScript, or sent by the phone's queue to …/datos.
import { randomUUID } from "node:crypto";
import { data, type AppLoadContext } from "react-router";
import { categoryById } from "~/competitions/categories.server";
import { requireMay, type SessionUser } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { MESSAGES } from "~/messages";
import { judgeBoard } from "~/competitions/judging/board.server";
import { JudgingError } from "~/competitions/judging/category.server";
import { enterRound, enterRun, enterScoreSheet } from "~/competitions/judging/entries.server";
import {
  EntryProblem,
  isEntryIntent,
  isRunSeenKey,
  outcomeText,
  parseEntry,
  type EntryFields,
  type EntryReply,
} from "~/competitions/judging/judge-entry";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";

const PRIVATE = { "Cache-Control": "no-store" };

/** Who asks, once the capability table allows them; and whether the category is this event's. */
async function judgeOf(
  request: Request,
  context: AppLoadContext,
  eventId: string,
  categoryId: string,
): Promise<{ user: SessionUser; found: boolean }> {
  const category = await categoryById(context.db, categoryId);
  const user = await requireMay(request, context, "category.judge", {
    eventId,
    categoryId: category?.id ?? "",
  });
  return { user, found: category !== null && category.eventId === eventId };
}

/**
 * The category's judges, the event's organisers and admins (capability `category.judge`); a
 * visitor goes to /login, anyone else is refused as every page refuses. A category of another
 * event, or none, is not found.
 */
export async function requireJudge(
  request: Request,
  context: AppLoadContext,
  eventId: string,
  categoryId: string,
): Promise<SessionUser> {
  const { user, found } = await judgeOf(request, context, eventId, categoryId);
  if (!found) notFound(JUDGING_MESSAGES.categoryNotFound);
  return user;
}

/** As requireJudge, for a post: its body is read (400 when it is not a form) before a 404. */
export async function requireJudgeWithForm(
  request: Request,
  context: AppLoadContext,
  eventId: string,
  categoryId: string,
): Promise<{ user: SessionUser; form: FormData }> {
  const { user, found } = await judgeOf(request, context, eventId, categoryId);
  const form = await readForm(request);
  if (!found) notFound(JUDGING_MESSAGES.categoryNotFound);
  return { user, form };
}

/** The category's state for this person, as the page and the phone's copy hold it. */
export async function loadBoard(user: SessionUser, categoryId: string, context: AppLoadContext) {
  const board = await judgeBoard(context.db, user, categoryId, context.now());
  if (!board) notFound(JUDGING_MESSAGES.categoryNotFound);
  return board;
}

/** The page's data: the board, and a fresh entry id for each form posted without JavaScript. */
export async function loadJudgePage(
  user: SessionUser,
  categoryId: string,
  context: AppLoadContext,
) {
  return data(
    {
      board: await loadBoard(user, categoryId, context),
      // A form posted twice (the browser's 'resend') carries the same id: stored once.
      entryId: randomUUID(),
    },
    { headers: PRIVATE },
  );
}

/** Each field of the form once, as text; null when one is repeated or is a file, or too many. */
function fieldsOf(form: FormData): EntryFields | null {
  const fields: EntryFields = {};
  let count = 0;
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    if (values.length !== 1 || typeof values[0] !== "string" || ++count > 40) return null;
    fields[key] = values[0];
  }
  return fields;
}

/**
 * One entry (a run, a round, this judge's sheet) from a form: `intent`, its fields and the
 * phone's entry id (`anotacion`). Refusals are answers with their 4xx status, never exceptions.
 */
export async function entryFromForm(
  form: FormData,
  context: AppLoadContext,
  user: SessionUser,
  categoryId: string,
): Promise<{ status: number; reply: EntryReply }> {
  try {
    const fields = fieldsOf(form);
    if (!fields || !isEntryIntent(fields.intent))
      throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    // Made on a phone under another account (a shared phone): never entered under this one.
    if (fields.cuenta !== undefined && fields.cuenta !== user.id)
      throw new JudgingError(JUDGING_MESSAGES.otherAccount, 409);
    const category = await categoryById(context.db, categoryId);
    if (!category) throw new JudgingError(JUDGING_MESSAGES.categoryNotFound, 404);
    let entry;
    try {
      entry = parseEntry(fields.intent, fields, category);
    } catch (error) {
      if (error instanceof EntryProblem)
        throw new JudgingError(
          error.message,
          error.message === JUDGING_MESSAGES.wrongFormat ? 409 : 400,
        );
      throw error;
    }
    // Every entry from a phone or a page carries its id, so a resend is never stored twice.
    const clientEntryId = fields.anotacion;
    if (!clientEntryId) throw new JudgingError(JUDGING_MESSAGES.entryIdMissing);
    // The screen says when it showed no entry for that run or round, or which run it showed
    // (decision 059).
    const unseen = fields.sinVer === "1";
    if (fields.visto !== undefined && !isRunSeenKey(fields.visto))
      throw new JudgingError(JUDGING_MESSAGES.entryMalformed);
    const now = context.now();
    const { db } = context;
    const result =
      entry.intent === "vuelta"
        ? await enterRun(
            db,
            user,
            categoryId,
            { ...entry, clientEntryId, unseen, seen: fields.visto },
            now,
          )
        : entry.intent === "ronda"
          ? await enterRound(db, user, categoryId, { ...entry, clientEntryId, unseen }, now)
          : await enterScoreSheet(db, user, categoryId, { ...entry, clientEntryId }, now);
    return {
      status: 200,
      reply: { ok: true, outcome: result.outcome, message: outcomeText(result.outcome) },
    };
  } catch (error) {
    if (error instanceof Refusal)
      return { status: error.status, reply: { ok: false, message: error.message } };
    throw error;
  }
}

export type JudgeActionData = EntryReply & { intent: string };

/**
 * The page's posts without JavaScript: an entry, answered on the page with what happened. (How the
 * category is judged and its bracket's draw are the organisers' screen's: decision 060.)
 */
export async function judgeAction(
  form: FormData,
  context: AppLoadContext,
  user: SessionUser,
  categoryId: string,
) {
  const intent = form.get("intent");
  if (isEntryIntent(intent)) {
    const { status, reply } = await entryFromForm(form, context, user, categoryId);
    return data<JudgeActionData>({ ...reply, intent }, { status, headers: PRIVATE });
  }
  return data<JudgeActionData>(
    { ok: false, message: MESSAGES.unknownAction, intent: "" },
    { status: 400, headers: PRIVATE },
  );
}
