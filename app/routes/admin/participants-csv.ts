// The participants of one event as a CSV file for spreadsheet programs. Admins and the event's organisers.
// An event of several sessions adds one column per session (its start), "sí" for those who
// attended it (decision 044); a one-session event's file is as it was. A competition adds the
// column 'Equipos': each person's teams (as a member or coach), so competitors are told apart.
import { toCsv } from "~/kernel/csv";
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { formatSortableDateTime } from "~/kernel/time";
import { requireEventMay } from "~/guards.server";
import { listAttendance } from "~/attendance/attendance.server";
import { teamPlaceText, teamsOfParticipants } from "~/competitions/team-hooks.server";
import type { Route } from "./+types/participants-csv";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireEventMay(request, context, "event.participants", params.eventId);
  const attendance = await listAttendance(context.db, admin, params.eventId);
  if (!attendance) notFound(MESSAGES.eventNotFound);
  const zone = context.config.siteTimezone;
  const perSession = attendance.sessions.length > 1 ? attendance.sessions : [];
  const teams = await teamsOfParticipants(context.db, admin, attendance.event.id);
  const teamsColumn = teams.size > 0;
  const rows = [
    [
      "Nombre",
      "Correo electrónico",
      "Ciudad",
      "Habilidades",
      "Inscripción",
      "Asistencia",
      ...perSession.map((s) => formatSortableDateTime(s.startsAt, zone)),
      ...(teamsColumn ? ["Equipos"] : []),
    ],
    ...attendance.participants.map((p) => [
      p.nombre,
      p.email,
      p.ciudad ?? "",
      p.habilidades,
      formatSortableDateTime(p.joinedAt, zone),
      p.checkedInAt ? formatSortableDateTime(p.checkedInAt, zone) : "",
      ...perSession.map((s) =>
        p.sessionIds.includes(s.id) ? "sí" : p.skippedIds.includes(s.id) ? "no irá" : "",
      ),
      ...(teamsColumn ? [(teams.get(p.userId) ?? []).map(teamPlaceText).join("; ")] : []),
    ]),
  ];
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="participantes-${attendance.event.id}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
