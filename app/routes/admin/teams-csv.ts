// A competition's teams and members as a CSV file (decision 052): one line per member, and one for
// the coach. Admins and the event's organisers. toCsv guards against formulas in cells.
import { TeamError } from "~/competitions/team-places.server";
import { listEventTeams } from "~/competitions/team-views.server";
import { requireEventMay } from "~/guards.server";
import { toCsv } from "~/kernel/csv";
import { notFound } from "~/kernel/not-found";
import { formatSortableDateTime } from "~/kernel/time";
import type { Route } from "./+types/teams-csv";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireEventMay(request, context, "event.teams", params.eventId);
  const listed = await listEventTeams(context.db, user, params.eventId).catch((error: unknown) => {
    if (error instanceof TeamError && error.status === 404) notFound(error.message);
    throw error;
  });
  const zone = context.config.siteTimezone;
  const rows: string[][] = [
    [
      "Equipo",
      "Categoría",
      "Colegio o universidad",
      "Ciudad",
      "Robot",
      "Estado",
      "Completo",
      "Inscrito el",
      "Persona",
      "Rol",
      "Correo electrónico",
    ],
  ];
  for (const t of listed.teams) {
    const base = [
      t.name,
      t.categoryName,
      t.school,
      t.city,
      t.robotName,
      t.status === "approved"
        ? "aprobado"
        : t.status === "rejected"
          ? "rechazado"
          : t.status === "withdrawn"
            ? "retirado"
            : "pendiente",
      t.completeness.complete ? "sí" : "no",
      formatSortableDateTime(t.createdAt, zone),
    ];
    for (const m of t.members)
      rows.push([...base, m.name, m.captain ? "capitán" : "integrante", m.email]);
    if (t.coach)
      rows.push([
        ...base,
        t.coach.name,
        t.coach.confirmed ? "entrenador" : "entrenador (sin confirmar)",
        t.coach.email,
      ]);
    if (t.members.length === 0 && !t.coach) rows.push([...base, "", "", ""]);
  }
  return new Response(toCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="equipos-${listed.event.id}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
