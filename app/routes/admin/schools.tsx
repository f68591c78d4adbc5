// /admin/escuelas — the schools and universities of the competitions' teams (decision 052): an
// admin merges a duplicate ("San Calixto") into the right one ("Colegio San Calixto"); its teams
// move, the duplicate goes, and the merge is in the audit log. A plain form.
import { data, Form } from "react-router";
import { TEAM_MESSAGES } from "~/competitions/teams";
import { mergeSchools, schoolsWithTeams } from "~/competitions/schools.server";
import { TeamError } from "~/competitions/team-places.server";
import { ErrorPage } from "~/error-page";
import { redirectWithFlash } from "~/flash.server";
import { requireMay } from "~/guards.server";
import { Refusal } from "~/kernel/errors";
import { readForm } from "~/kernel/read-form.server";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/schools";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireMay(request, context, "schools.merge");
  return data(
    { schools: await schoolsWithTeams(context.db, user) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireMay(request, context, "schools.merge");
  const form = await readForm(request);
  const from = form.getAll("desde");
  const into = form.getAll("en");
  try {
    if (form.get("intent") !== "merge" || from.length !== 1 || into.length !== 1)
      throw new TeamError(TEAM_MESSAGES.malformed);
    await mergeSchools(context.db, user, from[0], into[0]);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return data(
      { message: error.message },
      { status: error.status, headers: { "Cache-Control": "no-store" } },
    );
  }
  return redirectWithFlash(context, "/admin/escuelas", "schoolsMerged");
}

export function meta() {
  return [{ title: "Colegios y universidades — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Schools({ loaderData, actionData }: Route.ComponentProps) {
  const { schools } = loaderData;
  return (
    <div className="page team-admin">
      <BackLink to="/admin" label="Volver al panel" />
      <h1>Colegios y universidades</h1>
      <p className="muted">
        Los equipos eligen su colegio o universidad de esta lista, o agregan uno. Si uno está dos
        veces con nombres distintos, únelos: sus equipos pasan al que queda.
      </p>
      {actionData ? (
        <p className="field-error" role="alert">
          {actionData.message}
        </p>
      ) : null}
      {schools.length < 2 ? (
        <p>No hay dos colegios para unir.</p>
      ) : (
        <section className="card" aria-labelledby="unir-title">
          <h2 id="unir-title">Unir duplicados</h2>
          <Form method="post" className="form">
            <input type="hidden" name="intent" value="merge" />
            <div className="field">
              <label htmlFor="desde">El duplicado (desaparece)</label>
              <select id="desde" name="desde" required defaultValue="">
                <option value="">Elige uno</option>
                {schools.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.teams})
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="en">Se une en (queda)</label>
              <select id="en" name="en" required defaultValue="">
                <option value="">Elige uno</option>
                {schools.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.teams})
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="button">
              Unir
            </button>
          </Form>
        </section>
      )}
      <section className="card" aria-labelledby="lista-title">
        <h2 id="lista-title">Todos ({schools.length})</h2>
        <ul className="plain-list">
          {schools.map((s) => (
            <li key={s.id}>
              {s.name} — {s.teams === 1 ? "1 equipo" : `${s.teams} equipos`}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
