// /admin/eventos/:id/equipos — a competition's teams (decision 052): its organisers and
// admins see every team with full names, approve or reject it with a reason (audited), and
// download them as CSV. One small form per decision: works without JavaScript.
import { Form, Link } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireEventMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/teams";
import { loadTeams, teamsAction, type ReviewReply } from "./teams.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireEventMay(request, context, "event.teams", params.eventId);
  return loadTeams(user, params.eventId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireEventMay(request, context, "event.teams", params.eventId);
  return teamsAction(params.eventId, await readForm(request), user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Equipos: ${loaderData?.event.name ?? "competencia"} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

export default function Teams({ loaderData, actionData }: Route.ComponentProps) {
  const { event, teams } = loaderData;
  const reply = (actionData ?? null) as ReviewReply | null;
  return (
    <div className="page team-admin">
      <BackLink to={`/admin/eventos/${event.id}`} label="Volver a gestionar el evento" />
      <h1>Equipos: {event.name}</h1>
      <p>
        <a
          className="button button-secondary"
          href={`/admin/eventos/${event.id}/equipos.csv`}
          download
        >
          Descargar CSV (equipos e integrantes)
        </a>{" "}
        <Link className="button button-ghost" to={`/admin/eventos/${event.id}/inspeccion`}>
          Puerta e inspección de robots
        </Link>{" "}
        {loaderData.mergeSchools ? (
          <Link className="button button-ghost" to="/admin/escuelas">
            Colegios y universidades
          </Link>
        ) : null}
      </p>
      {reply && !teams.some((t) => t.id === reply.teamId) ? (
        <p className="field-error" role="alert">
          {reply.message}
        </p>
      ) : null}
      {teams.length === 0 ? <p>Aún no hay equipos inscritos.</p> : null}
      <ul className="plain-list team-admin-list">
        {teams.map((t) => (
          <li key={t.id} className="card team-admin-item" id={`equipo-${t.id}`}>
            <h2 className="team-admin-name">
              <Link to={`/equipos/${t.id}`}>{t.name}</Link>
            </h2>
            <p className="category-badges">
              <span className="badge">{t.categoryName}</span>
              <span className={`badge team-status team-status-${t.status}`}>{t.statusLabel}</span>
              <span className="badge">{t.completeness.complete ? "Completo" : "Incompleto"}</span>
            </p>
            <p>
              {t.school}, {t.city} · Robot: {t.robotName}
            </p>
            <ul className="team-admin-people">
              {t.members.map((m) => (
                <li key={m.email}>
                  {m.name}
                  {m.captain ? " (capitán)" : ""} — {m.email}
                </li>
              ))}
              <li>
                Entrenador:{" "}
                {t.coach
                  ? `${t.coach.name} — ${t.coach.email}${t.coach.confirmed ? " (confirmado)" : ""}`
                  : "sin entrenador"}
              </li>
            </ul>
            {t.reviewReason ? <p className="muted">Motivo del rechazo: {t.reviewReason}</p> : null}
            {reply?.teamId === t.id ? (
              <p className="field-error" role="alert">
                {reply.message}
              </p>
            ) : null}
            {t.status !== "withdrawn" ? (
              <div className="team-admin-actions">
                {t.status === "waiting" ? (
                  <p className="muted">
                    En la lista de espera: se puede aprobar cuando tome un lugar libre.
                  </p>
                ) : null}
                {t.status !== "approved" && t.status !== "waiting" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="review" />
                    <input type="hidden" name="teamId" value={t.id} />
                    <input type="hidden" name="visto" value={t.status} />
                    <input type="hidden" name="decision" value="aprobar" />
                    <button
                      type="submit"
                      className="button button-small"
                      aria-label={`Aprobar ${t.name}`}
                    >
                      Aprobar
                    </button>
                  </Form>
                ) : null}
                {t.status !== "rejected" ? (
                  <Form method="post" className="team-reject">
                    <input type="hidden" name="intent" value="review" />
                    <input type="hidden" name="teamId" value={t.id} />
                    <input type="hidden" name="visto" value={t.status} />
                    <input type="hidden" name="decision" value="rechazar" />
                    <label htmlFor={`motivo-${t.id}`}>Motivo del rechazo</label>
                    <input
                      id={`motivo-${t.id}`}
                      name="motivo"
                      type="text"
                      maxLength={500}
                      required
                    />
                    <button
                      type="submit"
                      className="button button-small button-danger"
                      aria-label={`Rechazar ${t.name}`}
                    >
                      Rechazar
                    </button>
                  </Form>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
