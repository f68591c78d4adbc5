// /admin/eventos/:id/inspeccion — the door of a competition (decision 055).
// Door staff (within their hours) and organisers see each category's approved teams: who of
// them came through the door, whether the team is checked in, its robot's inspections; and
// record an inspection, passed or failed with notes, until the category starts. One small form
// per team, large targets: made for a phone, and it works without JavaScript.
import { Form, Link } from "react-router";
import { ErrorPage } from "~/error-page";
import { INSPECTION_LIMITS, INSPECTION_RESULTS, inspectionLabel } from "~/competitions/door";
import { requireEventMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/inspection";
import { inspectionAction, loadInspection, type InspectionReply } from "./inspection.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireEventMay(request, context, "event.inspect", params.eventId);
  return loadInspection(user, params.eventId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireEventMay(request, context, "event.inspect", params.eventId);
  return inspectionAction(params.eventId, await readForm(request), user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Inspección: ${loaderData?.event.name ?? "competencia"} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

type Team = Route.ComponentProps["loaderData"]["categories"][number]["teams"][number];

function Presence({ checkedIn }: { checkedIn: boolean }) {
  return checkedIn ? (
    <span className="door-in">
      <span aria-hidden="true">✓ </span>registró entrada
    </span>
  ) : (
    <span className="door-out">sin registrar</span>
  );
}

function InspectionForm({ team, reply }: { team: Team; reply: InspectionReply | null }) {
  const error = reply?.teamId === team.id ? reply.message : null;
  const errorId = `error-${team.id}`;
  return (
    // A new key after each inspection: the form comes back empty for the next one.
    <Form key={team.inspections.length} method="post" className="door-form" preventScrollReset>
      <input type="hidden" name="intent" value="inspect" />
      <input type="hidden" name="teamId" value={team.id} />
      <fieldset aria-describedby={error ? errorId : undefined}>
        <legend>Inspección del robot «{team.robotName}»</legend>
        <div className="door-results">
          {(Object.keys(INSPECTION_RESULTS) as (keyof typeof INSPECTION_RESULTS)[]).map((r) => (
            <label key={r} className={`door-result door-result-${r}`}>
              <input type="radio" name="resultado" value={r} required />
              {r === "passed" ? "Pasó" : "No pasó"}
            </label>
          ))}
        </div>
        <label htmlFor={`notas-${team.id}`}>Notas (obligatorias si no pasó)</label>
        <textarea
          id={`notas-${team.id}`}
          name="notas"
          rows={2}
          maxLength={INSPECTION_LIMITS.notesMax}
        />
      </fieldset>
      {error ? (
        <p className="field-error" role="alert" id={errorId}>
          {error}
        </p>
      ) : null}
      <button type="submit" className="button door-submit">
        Registrar inspección de {team.name}
      </button>
    </Form>
  );
}

export default function Inspection({ loaderData, actionData }: Route.ComponentProps) {
  const { event, categories, organiser } = loaderData;
  const reply = (actionData ?? null) as InspectionReply | null;
  const known = categories.some((c) => c.teams.some((t) => t.id === reply?.teamId));
  return (
    <div className="page page-narrow door">
      <BackLink to={`/admin/eventos/${event.id}/registro`} label="Registro de entrada" />
      <h1>Inspección: {event.name}</h1>
      <p>
        Un equipo está registrado cuando entraron todos sus integrantes (y su entrenador, si la
        categoría lo exige). Compite si además su robot pasó la última inspección.
      </p>
      {organiser ? (
        <p>
          <Link className="button button-ghost" to={`/admin/eventos/${event.id}/equipos`}>
            Equipos e inscripciones
          </Link>
        </p>
      ) : null}
      {reply && !known ? (
        <p className="field-error" role="alert">
          {reply.message}
        </p>
      ) : null}
      {categories.length > 1 ? (
        <nav aria-label="Categorías">
          <ul className="door-categories">
            {categories.map((c) => (
              <li key={c.id}>
                <a href={`#categoria-${c.id}`}>{c.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {categories.length === 0 ? <p>Este evento no tiene categorías de competencia.</p> : null}
      {categories.map((c) => {
        const competing = c.teams.filter((t) => t.competes).length;
        return (
          <section key={c.id} id={`categoria-${c.id}`} className="door-category">
            <h2>{c.name}</h2>
            <p className="muted">Empieza: {c.startsAt}</p>
            <p>
              {c.open
                ? "La inspección está abierta hasta que empiece."
                : "La categoría ya empezó: la inspección está cerrada."}
            </p>
            <p>
              {c.teams.length === 0
                ? "Aún no hay equipos aprobados."
                : `Compiten ${competing} de ${c.teams.length} ${c.teams.length === 1 ? "equipo aprobado" : "equipos aprobados"}.`}
            </p>
            <ul className="door-teams">
              {c.teams.map((t) => {
                const latest = t.inspections[0] ?? null;
                return (
                  <li key={t.id} id={`equipo-${t.id}`} className="card door-team">
                    <h3 className="door-team-name">{t.name}</h3>
                    <p className="muted">
                      {t.school} · Robot: {t.robotName}
                    </p>
                    <p className="category-badges">
                      <span className={`badge ${t.checkedIn ? "door-badge-ok" : ""}`}>
                        {t.checkedIn ? "Equipo registrado" : "Equipo sin registrar"}
                      </span>
                      <span
                        className={`badge ${latest?.result === "passed" ? "door-badge-ok" : latest?.result === "failed" ? "door-badge-bad" : ""}`}
                      >
                        {inspectionLabel(latest?.result ?? null)}
                      </span>
                      {t.competes ? <span className="badge door-badge-ok">Compite</span> : null}
                    </p>
                    <ul className="door-people">
                      {t.members.map((m, i) => (
                        <li key={i}>
                          {m.name} — <Presence checkedIn={m.checkedIn} />
                        </li>
                      ))}
                      {t.coach ? (
                        <li>
                          Entrenador: {t.coach.name}
                          {t.coach.confirmed ? "" : " (sin confirmar)"} —{" "}
                          <Presence checkedIn={t.coach.checkedIn} />
                          {c.coachRequired ? "" : " (no cuenta para el registro del equipo)"}
                        </li>
                      ) : c.coachRequired ? (
                        <li>Sin entrenador: la categoría lo exige.</li>
                      ) : null}
                    </ul>
                    {latest?.notes ? (
                      <p>
                        Notas de la última inspección: <q>{latest.notes}</q>
                      </p>
                    ) : null}
                    {c.open ? (
                      <InspectionForm team={t} reply={reply} />
                    ) : reply?.teamId === t.id ? (
                      <p className="field-error" role="alert">
                        {reply.message}
                      </p>
                    ) : null}
                    {t.inspections.length > 0 ? (
                      <details className="door-history">
                        <summary>Historial de inspecciones ({t.inspections.length})</summary>
                        <ol>
                          {t.inspections.map((i) => (
                            <li key={i.id}>
                              {i.at}: {INSPECTION_RESULTS[i.result]}, por {i.by}
                              {i.notes ? (
                                <>
                                  {" "}
                                  — <q>{i.notes}</q>
                                </>
                              ) : null}
                            </li>
                          ))}
                        </ol>
                      </details>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
