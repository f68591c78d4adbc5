// A category's places and its waiting list (docs/decisions/052-teams.md): every team change locks
// the category row, so that places and names are decided one change at a time, and refuses after
// the category's registration deadline. Here are the lock, the places left, the waiting list that
// fills them, and the withdrawal that frees one; with who asks (TeamActor) and how a change is
// refused (TeamError), which the commands, views and hooks share.
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import {
  competitionCategories,
  competitionTeams,
  events,
  teamInvitations,
  teamMembers,
  type CompetitionCategory,
  type User,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";
import type { Grant } from "~/kernel/permissions";
import { queueMail, recipients } from "~/mail/mail.server";
import { holdTeamFee, releaseTeamFee } from "~/payments/hold.server";
import { TEAM_MESSAGES, type TeamFormValues, type TeamStatus } from "./teams";

export type TeamActor =
  | (Pick<User, "id" | "isAdmin" | "displayName" | "email" | "nombreCompleto"> &
      Partial<Pick<User, "fechaNacimiento">> & { grants?: readonly Grant[] })
  | null;

/** A refused change of a team; `field` is the form field to correct, when one is. */
export class TeamError extends Refusal {
  override name = "TeamError";
  constructor(
    message: string,
    status: 400 | 401 | 403 | 404 | 409 = 400,
    field?: keyof TeamFormValues,
  ) {
    super(message, status, { field });
  }
}

/** The states that hold a place in the category: a rejected or withdrawn team frees it. */
export const LIVE: TeamStatus[] = ["pending", "approved"];

export function signedIn(actor: TeamActor): NonNullable<TeamActor> {
  if (!actor) throw new TeamError(TEAM_MESSAGES.signIn, 401);
  return actor;
}

// Closed at the deadline, and always once its results are final: the members a certificate by
// place names are those of the final (decision 060).
export const isClosed = (
  category: Pick<CompetitionCategory, "registrationClosesAt" | "finalAt">,
  now: Date,
) => category.finalAt !== null || now.getTime() >= category.registrationClosesAt.getTime();

/**
 * Locks a category (the order of every team change in it) with its event's name. The event's row
 * first, in the order a payment's decision, the expiry of a hold and a category's edit take them
 * (event, category, payment): a team change that inserts a fee, whose foreign key needs the
 * event's row, then never waits for a decision that waits for it.
 */
export async function lockCategory(tx: Tx, categoryId: unknown) {
  if (!isUuid(categoryId)) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  const [owner] = await tx
    .select({ eventId: competitionCategories.eventId })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  if (!owner) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  await tx.select({ id: events.id }).from(events).where(eq(events.id, owner.eventId)).for("update");
  const [row] = await tx
    .select({ category: competitionCategories, eventName: events.nombreEvento })
    .from(competitionCategories)
    .innerJoin(events, eq(events.id, competitionCategories.eventId))
    .where(eq(competitionCategories.id, categoryId))
    .for("update", { of: competitionCategories });
  if (!row) throw new TeamError(TEAM_MESSAGES.categoryNotFound, 404);
  return row;
}

/** Reads a team, then locks its category and reads the team again under that lock. */
export async function lockTeam(tx: Tx, teamId: unknown) {
  if (!isUuid(teamId)) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const [first] = await tx
    .select({ categoryId: competitionTeams.categoryId })
    .from(competitionTeams)
    .where(eq(competitionTeams.id, teamId));
  if (!first) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const { category, eventName } = await lockCategory(tx, first.categoryId);
  const [team] = await tx.select().from(competitionTeams).where(eq(competitionTeams.id, teamId));
  if (!team) throw new TeamError(TEAM_MESSAGES.teamNotFound, 404);
  const members = await tx
    .select({ userId: teamMembers.userId, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, team.id))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  return { team, category, eventName, members };
}

/** The places a category has left (null: no limit), counted under its lock. */
export async function placesLeft(
  tx: Tx,
  category: Pick<CompetitionCategory, "id" | "capacity">,
): Promise<number | null> {
  if (category.capacity === null) return null;
  const [taken] = await tx
    .select({ n: count() })
    .from(competitionTeams)
    .where(
      and(eq(competitionTeams.categoryId, category.id), inArray(competitionTeams.status, LIVE)),
    );
  return Math.max(0, category.capacity - (taken?.n ?? 0));
}

export async function firstWaiting(tx: Tx, categoryId: string) {
  const [row] = await tx
    .select({ id: competitionTeams.id })
    .from(competitionTeams)
    .where(and(eq(competitionTeams.categoryId, categoryId), eq(competitionTeams.status, "waiting")))
    .orderBy(asc(competitionTeams.createdAt), asc(competitionTeams.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * Gives the category's free places to the teams waiting, first registered first (all of them
 * when it has no limit), until its event starts. Each becomes pending as a new team is; where
 * there is a fee its captain gets a hold from `now` and the mail that says how to pay, otherwise
 * the mail that says the team has its place. Call it holding the category's lock (every team
 * change does). Returns the ids of the teams that got a place.
 */
export async function fillTeamPlaces(
  tx: Tx,
  category: Pick<CompetitionCategory, "id" | "eventId" | "name" | "capacity" | "feeCents">,
  now: Date,
): Promise<string[]> {
  const [event] = await tx
    .select({ startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, category.eventId));
  if (!event || event.startsAt.getTime() <= now.getTime()) return [];
  const free = await placesLeft(tx, category);
  if (free === 0) return [];
  const query = tx
    .select({
      id: competitionTeams.id,
      name: competitionTeams.name,
      captainId: competitionTeams.captainId,
    })
    .from(competitionTeams)
    .where(
      and(eq(competitionTeams.categoryId, category.id), eq(competitionTeams.status, "waiting")),
    )
    .orderBy(asc(competitionTeams.createdAt), asc(competitionTeams.id));
  const next = free === null ? await query : await query.limit(free);
  for (const team of next) {
    await tx
      .update(competitionTeams)
      .set({ status: "pending", updatedAt: now })
      .where(eq(competitionTeams.id, team.id));
    if (!team.captainId) continue;
    if (category.feeCents > 0)
      await holdTeamFee(
        tx,
        {
          eventId: category.eventId,
          teamId: team.id,
          payerId: team.captainId,
          amountCents: category.feeCents,
        },
        now,
        { fromWaitlist: true },
      );
    else
      await queueMail(tx, "teamPlace", recipients.members([team.captainId]), {
        eventId: category.eventId,
        data: { team: { id: team.id, name: team.name, category: category.name } },
      });
  }
  return next.map((t) => t.id);
}

/**
 * Withdraws a team (inside a transaction holding its category's lock): its members go free, a fee
 * not paid is cancelled and one paid is marked for a refund, and its place goes to the first
 * team waiting.
 */
export async function withdraw(
  tx: Tx,
  teamId: string,
  category: Pick<CompetitionCategory, "id" | "eventId" | "name" | "capacity" | "feeCents">,
  now: Date,
) {
  await releaseTeamFee(tx, teamId, now);
  await tx.delete(teamMembers).where(eq(teamMembers.teamId, teamId));
  await tx
    .update(teamInvitations)
    .set({ revokedAt: now })
    .where(and(eq(teamInvitations.teamId, teamId), sql`${teamInvitations.revokedAt} is null`));
  await tx
    .update(competitionTeams)
    .set({ status: "withdrawn", withdrawnAt: now, updatedAt: now })
    .where(eq(competitionTeams.id, teamId));
  await fillTeamPlaces(tx, category, now);
}
