// What every judging action starts with (decision 057): the category, read and locked, so that two
// entries for it go one after the other; who may act on it; and the refusal judging throws.
import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import {
  competitionCategories,
  events,
  type CompetitionCategory,
  type User,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { Refusal, type RefusalStatus } from "~/kernel/errors";
import { assertMay, NotAllowedError, roleFor, type Action, type Grant } from "~/kernel/permissions";
import type { Format } from "../categories";
import { JUDGING_MESSAGES } from "./messages";
import { DEFAULT_TIE_RULE, isTieRule, type TieRuleOf } from "./rules";

export type JudgingActor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> & {
      grants?: readonly Grant[];
    })
  | null;

export class JudgingError extends Refusal {
  override name = "JudgingError";
  constructor(message: string, status: RefusalStatus = 400) {
    super(message, status);
  }
}

/** The name an entry keeps for who made it. */
export function nameOf(actor: NonNullable<JudgingActor>): string {
  return actor.nombreCompleto?.trim() || actor.displayName?.trim() || actor.email;
}

export interface OpenCategory {
  category: CompetitionCategory;
  eventName: string;
  role: ReturnType<typeof assertMay>;
}

/**
 * Checks who is asking (a refusal for someone without any role comes before a 404, so that it
 * never tells which categories exist), then locks the category's row for the transaction and
 * refuses a category marked final unless `allowFinal`. `lock: false` reads it without the lock.
 */
export async function openCategory(
  tx: Tx,
  actor: JudgingActor,
  categoryId: unknown,
  action: Action,
  options: { format?: Format; allowFinal?: boolean; lock?: boolean } = {},
): Promise<OpenCategory> {
  const query = () =>
    tx
      .select({ category: competitionCategories, eventName: events.nombreEvento })
      .from(competitionCategories)
      .innerJoin(events, eq(events.id, competitionCategories.eventId))
      .where(eq(competitionCategories.id, String(categoryId)));
  // A page that only reads (`lock: false`) does not wait behind the entries being written.
  const [found] = !isUuid(categoryId)
    ? []
    : options.lock === false
      ? await query()
      : await query().for("update", { of: competitionCategories });
  if (!found) {
    if (!actor || (!actor.isAdmin && (actor.grants?.length ?? 0) === 0))
      throw new NotAllowedError();
    throw new JudgingError(JUDGING_MESSAGES.categoryNotFound, 404);
  }
  const { category } = found;
  const scope = { eventId: category.eventId, categoryId: category.id };
  const granted = assertMay(actor, action, scope);
  // Someone who both organises the event and judges one of its categories acts as its organiser
  // (their entries correct, never conflict), whatever the order their grants were read in.
  const role = roleFor(actor, "event.judging", scope) ?? granted;
  if (options.format && category.format !== options.format)
    throw new JudgingError(JUDGING_MESSAGES.wrongFormat, 409);
  if (!options.allowFinal && category.finalAt !== null)
    throw new JudgingError(JUDGING_MESSAGES.final, 409);
  return { category, eventName: found.eventName, role };
}

/** A category's tie rule: the one its organisers chose, or its format's default. */
export function tieRuleOf<F extends Format>(
  category: { tieRule: string | null },
  format: F,
): TieRuleOf<F> {
  return isTieRule(format, category.tieRule) ? category.tieRule : DEFAULT_TIE_RULE[format];
}

/** A client's entry id: absent, or 8–64 letters, digits, '-' or '_' (a UUID a phone made). */
export function clientEntryIdOf(value: unknown): string | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{8,64}$/.test(value))
    throw new JudgingError(JUDGING_MESSAGES.entryIdInvalid);
  return value;
}

/** A whole number sent as a number or as digits in a form; anything else is NaN. */
export function wholeNumberOf(value: unknown): number {
  if (typeof value === "number") return Number.isInteger(value) ? value : NaN;
  if (typeof value === "string" && /^\d{1,10}$/.test(value.trim())) return Number(value.trim());
  return NaN;
}

/** A time in seconds as judges read it: '12,345 s'. */
export function secondsText(ms: number | null): string {
  if (ms === null) return "no terminó";
  return `${(ms / 1000).toLocaleString("es-BO", { minimumFractionDigits: 3, maximumFractionDigits: 3 })} s`;
}

/** What a stored entry is, once the rules decided (decision 057). */
export type EntryOutcome =
  /** Stored; it counts. */
  | "saved"
  /** Already there (a resend, or the same result entered twice): nothing changed. */
  | "same"
  /** A different second entry: stored for the organisers to decide; the first still counts. */
  | "conflict"
  /** An organiser's or admin's correction: it counts now, the first is kept as replaced. */
  | "corrected";

/**
 * The rule for a slot (a run, a round, a judge's sheet): nothing there yet, it is saved; the same
 * result again changes nothing; a different one is a correction when an organiser or admin makes
 * it, and a conflict when a judge does (judges never overwrite).
 */
export function outcomeFor(
  role: OpenCategory["role"],
  standing: boolean,
  sameAsStanding: boolean,
  /** Made where no entry for that run or round was shown (an organiser offline, say). */
  unseen = false,
): EntryOutcome {
  if (!standing) return "saved";
  if (sameAsStanding) return "same";
  // An organiser corrects what they saw; an entry made without seeing the one that stands is a
  // second entry like a judge's, for the organisers to decide.
  return role === "judge" || unseen ? "conflict" : "corrected";
}
