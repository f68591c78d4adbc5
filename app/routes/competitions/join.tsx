// /equipos/unirse/:code — an invitation to a team (decision 052). Whoever opens it signs in with
// their own account first and comes back; then they join as a competitor, or confirm as the team's
// adult coach (whose confirmation stands for the adults' consent for minors). Without a
// code: a form to type one. Plain forms: works without JavaScript.
import { Form, Link } from "react-router";
import { LEVELS, type Level } from "~/competitions/categories";
import { ErrorPage } from "~/error-page";
import { getUser, requireUser } from "~/guards.server";
import { formatDateTime } from "~/kernel/time";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/join";
import { joinAction, loadJoin, type TeamReply } from "./team.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  return loadJoin(request, user, params.code, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return joinAction(request, user, params.code, context);
}

export function meta() {
  return [{ title: "Unirse a un equipo — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Join({ loaderData, actionData }: Route.ComponentProps) {
  const reply = (actionData ?? null) as TeamReply | null;
  const invitation = "invitation" in loaderData ? loaderData.invitation : null;
  if (!invitation) {
    return (
      <div className="page team-page">
        <BackLink to="/eventos" label="Volver a los eventos" />
        <h1>Unirse a un equipo</h1>
        <section className="card" aria-labelledby="codigo-title">
          <h2 id="codigo-title">Código de invitación</h2>
          <Form method="get" action="/equipos/unirse" className="form">
            <div className="field">
              <label htmlFor="codigo">Código que te dio el capitán</label>
              <input
                id="codigo"
                name="codigo"
                type="text"
                autoComplete="off"
                autoCapitalize="characters"
                maxLength={40}
                required
                aria-invalid={loaderData.typedError ? true : undefined}
                aria-describedby={loaderData.typedError ? "codigo-error" : undefined}
              />
              {loaderData.typedError ? (
                <p className="field-error" id="codigo-error" role="alert">
                  {loaderData.typedError}
                </p>
              ) : null}
            </div>
            <button type="submit" className="button">
              Buscar equipo
            </button>
          </Form>
        </section>
      </div>
    );
  }
  const { coachConsent, timeZone } = loaderData as typeof loaderData & {
    coachConsent: string;
    timeZone: string;
  };
  const minors = invitation.level === "primaria" || invitation.level === "secundaria";
  return (
    <div className="page team-page">
      <BackLink to="/eventos" label="Volver a los eventos" />
      <h1>Invitación al equipo «{invitation.teamName}»</h1>
      <section className="card" aria-labelledby="equipo-title">
        <h2 id="equipo-title">{invitation.teamName}</h2>
        <ul className="plain-list team-facts">
          <li>
            {invitation.eventName}: {invitation.categoryName} ({LEVELS[invitation.level as Level]})
          </li>
          <li>
            {invitation.school}, {invitation.city}
          </li>
          <li>Inscripciones hasta {formatDateTime(invitation.closesAt, timeZone)}</li>
        </ul>
        {reply ? (
          <p className="field-error" role="alert">
            {reply.message}
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="integrante-title">
        <h2 id="integrante-title">Soy integrante</h2>
        <p>Te unes al equipo con tu cuenta. Solo puedes estar en un equipo por categoría.</p>
        <Form method="post">
          <input type="hidden" name="intent" value="join" />
          <button type="submit" className="button">
            Unirme al equipo
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="entrenador-title">
        <h2 id="entrenador-title">Soy el entrenador</h2>
        <p>
          Un entrenador es un adulto (18 años o más según la fecha de nacimiento de su{" "}
          <Link to="/profile">perfil</Link>) y puede entrenar a varios equipos.
          {invitation.coachRequired ? " Esta categoría requiere un entrenador." : ""}
        </p>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="coach" />
          <div className="team-consent-check">
            <input id="consentimiento" name="consentimiento" type="checkbox" value="si" required />
            <label htmlFor="consentimiento">{coachConsent}</label>
          </div>
          {minors ? (
            <p className="muted">
              Los integrantes de {LEVELS[invitation.level as Level].toLowerCase()} son menores de
              edad: tu confirmación es el consentimiento de un adulto para su inscripción.
            </p>
          ) : null}
          <button type="submit" className="button button-secondary">
            Confirmo que soy el entrenador
          </button>
        </Form>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
