// /equipos/:teamId — a team's page (decision 052): its data, robot, members, coach and whether it
// is complete. Its members, coach and the event's organisers read full names and the invitation;
// anyone else reads competitors by first name and initial ('Ana Q.'). The captain edits the team,
// its robot's photo and its invitation until the category's deadline. Plain forms throughout.
import { Form, Link, useSearchParams } from "react-router";
import { TeamForm } from "~/competitions/components/team-form";
import { ErrorPage } from "~/error-page";
import { getUser, requireUser } from "~/guards.server";
import { uploadSrcSet } from "~/kernel/images";
import { formatDateTime } from "~/kernel/time";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { formatBs } from "~/payments/money";
import { BackLink } from "~/ui/back-link";
import { FileField } from "~/ui/file-field";
import { CheckInPass } from "~/attendance/components/check-in-pass";
import { inspectionLabel } from "~/competitions/door";
import { placeText } from "~/competitions/components/results-view";
import type { Route } from "./+types/team";
import { loadTeam, teamAction, type TeamReply } from "./team.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  return loadTeam(request, user, params.teamId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  return teamAction(request, user, params.teamId, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `${loaderData?.team.name ?? "Equipo"} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

/** How a team's fee stands, in the words of the payment page. */
const FEE_STATUS: Record<string, string> = {
  pending: "pendiente de pago",
  submitted: "pago enviado, tesorería lo revisa",
  refused: "tesorería pidió otro comprobante",
  confirmed: "pagada",
  waived: "beca",
  expired: "la reserva venció",
  cancelled: "cancelada",
  refunded: "reembolsada",
};

function Check({ ok, children }: { ok: boolean; children: React.ReactNode }) {
  return (
    <li className={ok ? "team-check team-check-ok" : "team-check"}>
      <span aria-hidden="true">{ok ? "✓" : "•"}</span> {children}
      <span className="visually-hidden">{ok ? " (listo)" : " (falta)"}</span>
    </li>
  );
}

export default function TeamPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    team,
    category,
    event,
    members,
    coach,
    invitation,
    completeness,
    viewer,
    fee,
    editing,
    schools,
    timeZone,
    maxMegabytes,
    door,
    pass,
    inspectionLink,
  } = loaderData;
  const [params] = useSearchParams();
  const reply = (actionData ?? null) as TeamReply | null;
  const errors = reply?.fieldErrors ?? {};
  const formRef = useFocusFirstError<HTMLFormElement>(
    Object.keys(errors).length > 0 ? reply : null,
  );
  const open = team.status === "waiting" || team.status === "pending" || team.status === "approved";
  const canEdit = viewer.isCaptain && open && !category.closed;
  const showForm = canEdit && (editing || reply?.intent === "updateTeam");
  const confirmingWithdraw = canEdit && params.get("retirar") === "1";
  const insider = viewer.isMember || viewer.isCoach || viewer.isOrganiser;
  return (
    <div className="page team-page">
      <BackLink to={`/detalles/${event.id}#categorias`} label={`Volver a ${event.name}`} />
      <h1>{team.name}</h1>
      <p className="category-badges">
        <span className="badge">{category.name}</span>
        <span className="badge">{category.levelLabel}</span>
        <span className={`badge team-status team-status-${team.status}`}>{team.statusLabel}</span>
      </p>
      {loaderData.result ? (
        <p className="team-result">
          <Link to={`/detalles/${event.id}/resultados#resultados-${category.id}`}>
            {loaderData.result.final
              ? `Resultado final: ${placeText(loaderData.result.place)} puesto`
              : `Va ${placeText(loaderData.result.place)} en la categoría (en curso)`}
          </Link>
        </p>
      ) : null}
      {reply && Object.keys(errors).length === 0 ? (
        <p className="field-error" role="alert">
          {reply.message}
        </p>
      ) : null}
      {team.waitingPosition !== null ? (
        <p className="team-waiting-note">
          {team.waitingPosition === 1
            ? "El equipo es el primero de la lista de espera: el próximo lugar que se libere es suyo."
            : `El equipo es el ${team.waitingPosition}.º de la lista de espera.`}{" "}
          {insider
            ? `Les escribiremos en cuanto tenga lugar${category.feeCents > 0 ? ", para pagar la cuota" : ""}; mientras tanto pueden completar el equipo.`
            : ""}
        </p>
      ) : null}
      {team.status === "rejected" && team.reviewReason ? (
        <p className="field-error">Motivo del rechazo: {team.reviewReason}</p>
      ) : null}

      <section className="card" aria-labelledby="equipo-datos">
        <h2 id="equipo-datos">El equipo</h2>
        <dl className="category-facts">
          <div>
            <dt>Colegio o universidad</dt>
            <dd>{team.school}</dd>
          </div>
          <div>
            <dt>Ciudad</dt>
            <dd>{team.city}</dd>
          </div>
          <div>
            <dt>Robot</dt>
            <dd>{team.robotName}</dd>
          </div>
          <div>
            <dt>Inscripciones hasta</dt>
            <dd>{formatDateTime(category.registrationClosesAt, timeZone)}</dd>
          </div>
        </dl>
        {team.robotPhoto ? (
          <img
            className="team-robot-photo"
            src={team.robotPhoto}
            srcSet={uploadSrcSet(team.robotPhoto)}
            sizes="(min-width: 40rem) 36rem, 100vw"
            alt={`El robot ${team.robotName}`}
          />
        ) : null}
        {canEdit && !showForm ? (
          <p>
            <Link className="button button-secondary" to="?editar=1#equipo-form">
              Editar equipo
            </Link>
          </p>
        ) : null}
        {showForm ? (
          <div id="equipo-form">
            <TeamForm
              values={
                reply?.values ?? {
                  nombre: team.name,
                  colegio: team.school,
                  ciudad: team.city,
                  robot: team.robotName,
                }
              }
              errors={errors}
              schools={schools}
              hidden={{ intent: "updateTeam" }}
              submitLabel="Guardar equipo"
              cancelTo={`/equipos/${team.id}`}
              formRef={formRef}
            />
          </div>
        ) : null}
        {canEdit ? (
          <div className="team-photo-forms">
            <Form method="post" encType="multipart/form-data" reloadDocument className="form">
              <FileField
                id="foto-robot"
                name="foto"
                label="Foto del robot"
                accept="image/jpeg,image/png,image/webp"
                required
                hint={`JPEG, PNG o WebP, hasta ${maxMegabytes} MB.`}
              />
              <button type="submit" className="button button-secondary">
                Subir foto
              </button>
            </Form>
            {team.robotPhoto ? (
              <Form method="post">
                <input type="hidden" name="intent" value="removePhoto" />
                <button type="submit" className="button button-ghost">
                  Quitar la foto
                </button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </section>

      <section className="card" aria-labelledby="equipo-completo">
        <h2 id="equipo-completo">
          {completeness.complete ? "Equipo completo" : "Para completar el equipo"}
        </h2>
        <ul className="plain-list">
          <Check ok={completeness.members}>
            {members.length} de {category.minMembers} integrantes como mínimo (máximo{" "}
            {category.maxMembers})
          </Check>
          {category.coachRequired ? (
            <Check ok={completeness.coach}>Confirmación de un entrenador adulto</Check>
          ) : null}
          {category.feeCents > 0 ? (
            <Check ok={completeness.fee}>
              Cuota de {formatBs(category.feeCents)}
              {fee ? ` — ${FEE_STATUS[fee.status] ?? fee.status}` : ""}
              {fee?.heldUntil && (fee.status === "pending" || fee.status === "refused")
                ? ` (lugar reservado hasta el ${formatDateTime(fee.heldUntil, timeZone)})`
                : ""}
            </Check>
          ) : null}
        </ul>
        {fee?.payer && ["pending", "submitted", "refused"].includes(fee.status) ? (
          <p>
            <Link
              className="button"
              to={`/detalles/${event.id}/pago?equipo=${team.id}`}
              reloadDocument
            >
              {fee.status === "submitted" ? "Ver el pago de la cuota" : "Pagar la cuota"}
            </Link>
          </p>
        ) : null}
      </section>

      {door ? (
        <section className="card" aria-labelledby="equipo-puerta">
          <h2 id="equipo-puerta">En la puerta</h2>
          <ul className="plain-list">
            <Check ok={door.teamCheckedIn}>
              {door.checkedIn} de {door.expected} registraron su entrada
              {category.coachRequired ? " (integrantes y entrenador)" : ""}
            </Check>
            <Check ok={door.inspection?.result === "passed"}>
              {inspectionLabel(door.inspection?.result ?? null)}
              {door.inspection
                ? ` (inspección del ${formatDateTime(door.inspection.at, timeZone)})`
                : ""}
            </Check>
          </ul>
          {door.inspection?.notes ? (
            <p>
              Notas de la inspección: <q>{door.inspection.notes}</q>
            </p>
          ) : null}
          <p>
            {door.competes
              ? "El equipo compite: está registrado y su robot pasó la inspección."
              : "Para competir, todo el equipo registra su entrada con su pase y el robot pasa la inspección antes de que empiece la categoría. Si no pasa, corrígelo y vuelve a la mesa de inspección."}
          </p>
          {pass ? (
            <>
              <h3>Tu pase</h3>
              <CheckInPass pass={pass} />
            </>
          ) : null}
          {inspectionLink ? (
            <p>
              <Link className="button button-ghost" to={`/admin/eventos/${event.id}/inspeccion`}>
                Inspección de robots
              </Link>
            </p>
          ) : null}
        </section>
      ) : null}

      <section className="card" aria-labelledby="equipo-integrantes">
        <h2 id="equipo-integrantes">Integrantes</h2>
        <ul className="plain-list team-members">
          {members.map((m, i) => (
            <li key={m.id ?? i}>
              <span>
                {m.name}
                {m.captain ? " (capitán)" : ""}
              </span>
              {canEdit && m.id && !m.captain ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="removeMember" />
                  <input type="hidden" name="userId" value={m.id} />
                  <button
                    type="submit"
                    className="button button-small button-ghost"
                    aria-label={`Quitar a ${m.name} del equipo`}
                  >
                    Quitar
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        <p>
          <strong>Entrenador:</strong>{" "}
          {coach ? `${coach}${team.coachConfirmed ? " (confirmado)" : ""}` : "Aún sin entrenador"}
        </p>
        {viewer.isCaptain && coach && open && !category.closed ? (
          <Form method="post">
            <input type="hidden" name="intent" value="removeCoach" />
            <button
              type="submit"
              className="button button-small button-ghost"
              aria-label={`Quitar a ${coach} como entrenador`}
            >
              Quitar entrenador
            </button>
          </Form>
        ) : null}
        {viewer.isMember && !viewer.isCaptain && open && !category.closed ? (
          <Form method="post">
            <input type="hidden" name="intent" value="leaveTeam" />
            <button type="submit" className="button button-ghost">
              Salir del equipo
            </button>
          </Form>
        ) : null}
        {viewer.isCoach && open && !category.closed ? (
          <Form method="post">
            <input type="hidden" name="intent" value="leaveCoach" />
            <button type="submit" className="button button-ghost">
              Dejar de ser entrenador
            </button>
          </Form>
        ) : null}
        {!insider ? (
          <p className="muted">
            En las páginas públicas cada integrante aparece con su nombre y la inicial de su
            apellido.
          </p>
        ) : null}
      </section>

      {invitation && (viewer.isMember || viewer.isOrganiser) && !category.closed ? (
        <section className="card" aria-labelledby="invitacion">
          <h2 id="invitacion">Invitar al equipo</h2>
          <p>
            Comparte este enlace con tus compañeros y con el entrenador: cada uno entra con su
            propia cuenta (Google o un enlace a su correo). Sirve hasta el cierre de inscripciones o
            hasta que el capitán haga uno nuevo; se unen integrantes mientras el equipo tenga lugar.
          </p>
          <p className="team-invite-link">
            <a href={invitation.link}>{invitation.link}</a>
          </p>
          <p>
            Código: <strong className="team-invite-code">{invitation.code}</strong> (se escribe en{" "}
            <Link to="/equipos/unirse">/equipos/unirse</Link>)
          </p>
          {canEdit ? (
            <Form method="post">
              <input type="hidden" name="intent" value="renewInvitation" />
              <button type="submit" className="button button-secondary">
                Nuevo enlace (el anterior deja de servir)
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}

      {canEdit || (viewer.isCaptain && team.status === "rejected") ? (
        <section className="card" aria-labelledby="retirar">
          <h2 id="retirar">
            {team.status === "waiting" ? "Salir de la lista de espera" : "Retirar el equipo"}
          </h2>
          {team.status === "rejected" ? (
            <p>
              Al retirarlo, sus integrantes quedan libres para inscribirse en otro equipo de la
              categoría.
            </p>
          ) : null}
          {confirmingWithdraw ? (
            <Form method="post">
              <p>
                {team.status === "waiting"
                  ? `¿Sacar a «${team.name}» de la lista de espera? El equipo queda retirado y no se puede deshacer.`
                  : `¿Retirar «${team.name}»? Su lugar queda libre y no se puede deshacer.`}
              </p>
              <input type="hidden" name="intent" value="withdrawTeam" />
              <div className="button-row">
                <button type="submit" className="button button-danger">
                  {team.status === "waiting" ? "Sí, salir de la lista" : "Sí, retirar el equipo"}
                </button>
                <Link className="button button-ghost" to={`/equipos/${team.id}`}>
                  Cancelar
                </Link>
              </div>
            </Form>
          ) : (
            <p>
              <Link className="button button-danger" to="?retirar=1#retirar">
                {team.status === "waiting" ? "Salir de la lista de espera" : "Retirar el equipo"}
              </Link>
            </p>
          )}
        </section>
      ) : null}
      {viewer.isOrganiser ? (
        <p>
          <Link to={`/admin/eventos/${event.id}/equipos`}>Todos los equipos de {event.name}</Link>
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
