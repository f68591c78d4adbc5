// A competition's teams for its organisers and admins (/admin/eventos/:id/equipos, decision 052):
// every team with its members' full names and e-mails, approval or rejection with a reason.
import { data, type AppLoadContext } from "react-router";
import { TEAM_MESSAGES, TEAM_STATUS } from "~/competitions/teams";
import { reviewTeam } from "~/competitions/team-commands.server";
import { TeamError } from "~/competitions/team-places.server";
import { listEventTeams } from "~/competitions/team-views.server";
import { redirectWithFlash } from "~/flash.server";
import type { SessionUser } from "~/guards.server";
import { Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { may } from "~/kernel/permissions";

export async function loadTeams(user: SessionUser, eventId: string, context: AppLoadContext) {
  try {
    const { event, teams } = await listEventTeams(context.db, user, eventId);
    return data(
      {
        event,
        // The schools' page, for those who may merge them (decision 071).
        mergeSchools: may(user, "schools.merge"),
        teams: teams.map((t) => ({
          ...t,
          statusLabel: TEAM_STATUS[t.status],
          createdAt: t.createdAt.toISOString(),
        })),
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof TeamError && error.status === 404) notFound(error.message);
    throw error;
  }
}

export type ReviewReply = { message: string; teamId?: string };

export async function teamsAction(
  eventId: string,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const teamId = form.getAll("teamId");
  const decision = form.getAll("decision");
  const reason = form.getAll("motivo");
  try {
    if (
      form.get("intent") !== "review" ||
      teamId.length !== 1 ||
      decision.length !== 1 ||
      reason.length > 1
    )
      throw new TeamError(TEAM_MESSAGES.malformed);
    await reviewTeam(
      context.db,
      user,
      eventId,
      teamId[0],
      decision[0],
      reason[0],
      context.now(),
      form.get("visto") ?? "",
    );
    return redirectWithFlash(
      context,
      `/admin/eventos/${eventId}/equipos`,
      decision[0] === "aprobar" ? "teamApproved" : "teamRejected",
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data<ReviewReply>(
      { message: error.message, teamId: typeof teamId[0] === "string" ? teamId[0] : undefined },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
}
