// /equipos/nuevo?categoria=… — 'Inscribir un equipo' (decision 052): a member registers
// a team in a category and is its captain. A plain form: works without JavaScript.
import { Link } from "react-router";
import { LEVELS, teamSizeLabel, type Level } from "~/competitions/categories";
import { TeamForm } from "~/competitions/components/team-form";
import { ErrorPage } from "~/error-page";
import { requireUser } from "~/guards.server";
import { formatDateTime } from "~/kernel/time";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { formatBs } from "~/payments/money";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/team-new";
import { loadNewTeam, newTeamAction, type TeamReply } from "./team.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, context);
  return loadNewTeam(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return newTeamAction(request, user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Inscribir un equipo${loaderData ? `: ${loaderData.category.name}` : ""} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

const EMPTY = { nombre: "", colegio: "", ciudad: "", robot: "" };

export default function NewTeam({ loaderData, actionData }: Route.ComponentProps) {
  const { category, event, schools, timeZone, coachConsent } = loaderData;
  const reply = (actionData ?? null) as TeamReply | null;
  const errors = reply?.fieldErrors ?? {};
  const formRef = useFocusFirstError<HTMLFormElement>(
    Object.keys(errors).length > 0 ? reply : null,
  );
  const minors = category.level === "primaria" || category.level === "secundaria";
  return (
    <div className="page team-page">
      <BackLink to={`/detalles/${event.id}#categorias`} label={`Volver a ${event.name}`} />
      <h1>Inscribir un equipo</h1>
      <section className="card" aria-labelledby="categoria-title">
        <h2 id="categoria-title">{category.name}</h2>
        <ul className="plain-list team-facts">
          <li>{LEVELS[category.level as Level]}</li>
          <li>
            {teamSizeLabel(category.minMembers, category.maxMembers)}
            {category.coachRequired ? ", con un entrenador adulto" : ""}
          </li>
          <li>
            Cuota por equipo: {category.feeCents === 0 ? "Gratis" : formatBs(category.feeCents)}
          </li>
          <li>Inscripciones hasta {formatDateTime(category.registrationClosesAt, timeZone)}</li>
        </ul>
        <p className="muted">
          Tú serás el capitán: después de inscribir el equipo tendrás un enlace y un código para
          invitar a tus compañeros y a su entrenador. Cada uno se une con su propia cuenta.
        </p>
        {minors ? (
          <p className="team-consent">
            Los integrantes de {LEVELS[category.level as Level].toLowerCase()} son menores de edad:
            su entrenador confirma desde su cuenta con este texto: «{coachConsent}» En las páginas
            públicas cada integrante aparece solo con su nombre y la inicial de su apellido.
          </p>
        ) : null}
      </section>
      {category.closed ? (
        <p className="field-error" role="alert">
          Las inscripciones de esta categoría ya cerraron.
        </p>
      ) : (
        <section className="card" aria-labelledby="equipo-title">
          <h2 id="equipo-title">Datos del equipo</h2>
          {category.waitingList ? (
            <p className="team-waiting-note">
              La categoría no tiene lugares libres
              {category.waiting > 0
                ? ` y ${category.waiting === 1 ? "1 equipo espera" : `${category.waiting} equipos esperan`}`
                : ""}
              : tu equipo quedará en la lista de espera. Si se libera un lugar es del primer equipo
              de la lista, y te escribiremos
              {category.feeCents > 0 ? " para pagar la cuota" : ""}.
            </p>
          ) : null}
          {reply && Object.keys(errors).length === 0 ? (
            <p className="field-error" role="alert">
              {reply.message}
            </p>
          ) : null}
          <TeamForm
            values={reply?.values ?? EMPTY}
            errors={errors}
            schools={schools}
            hidden={{ categoryId: category.id }}
            submitLabel={
              category.waitingList ? "Inscribir en la lista de espera" : "Inscribir equipo"
            }
            formRef={formRef}
          />
        </section>
      )}
      <p>
        <Link to={`/detalles/${event.id}#categorias`}>Ver las categorías de {event.name}</Link>
      </p>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
