// The inspection screen of a competition (/admin/eventos/:id/inspeccion, decision 055): door staff
// and organisers see each category's approved teams at the door and record their robots'
// inspections.
import { data, type AppLoadContext } from "react-router";
import { INSPECTION_MESSAGES } from "~/competitions/door";
import { doorBoard, DoorError, recordInspection } from "~/competitions/door.server";
import { redirectWithFlash } from "~/flash.server";
import type { SessionUser } from "~/guards.server";
import { Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { formatDateTime } from "~/kernel/time";
import { may } from "~/kernel/permissions";
import { KERNEL_MESSAGES } from "~/kernel/messages";

export async function loadInspection(user: SessionUser, eventId: string, context: AppLoadContext) {
  const now = context.now();
  const board = await doorBoard(context.db, user, eventId, now);
  if (!board) notFound(KERNEL_MESSAGES.eventNotFound);
  const timeZone = context.config.siteTimezone;
  return data(
    {
      event: { id: board.event.id, name: board.event.name },
      // Door staff go back to the door; organisers may also open the teams' list.
      organiser: may(user, "event.teams", { eventId: board.event.id }),
      categories: board.categories.map((c) => ({
        ...c,
        startsAt: formatDateTime(c.startsAt, timeZone),
        teams: c.teams.map((t) => ({
          ...t,
          members: t.members.map((m) => ({ name: m.name, checkedIn: m.checkedInAt !== null })),
          coach: t.coach
            ? {
                name: t.coach.name,
                checkedIn: t.coach.checkedInAt !== null,
                confirmed: t.coach.confirmed,
              }
            : null,
          inspections: t.inspections.map((i) => ({
            id: i.id,
            result: i.result,
            notes: i.notes,
            by: i.by,
            at: formatDateTime(i.at, timeZone),
          })),
        })),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export type InspectionReply = { message: string; teamId?: string };

export async function inspectionAction(
  eventId: string,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const teamId = form.getAll("teamId");
  const result = form.getAll("resultado");
  const notes = form.getAll("notas");
  try {
    if (
      form.get("intent") !== "inspect" ||
      teamId.length !== 1 ||
      notes.length > 1 ||
      result.length > 1
    )
      throw new DoorError(INSPECTION_MESSAGES.malformed);
    const recorded = await recordInspection(
      context.db,
      user,
      eventId,
      teamId[0],
      { result: result[0], notes: notes[0] },
      context.now(),
    );
    return redirectWithFlash(
      context,
      `/admin/eventos/${eventId}/inspeccion#equipo-${String(teamId[0])}`,
      recorded === "passed" ? "inspectionPassed" : "inspectionFailed",
    );
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data<InspectionReply>(
      { message: error.message, teamId: typeof teamId[0] === "string" ? teamId[0] : undefined },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
}
