import { useEffect, useState } from "react";
import { Form, isRouteErrorResponse, Link, useNavigation, useRevalidator } from "react-router";
import { AlertDialog, Dialog } from "~/ui/dialog";
import { Avatar, displayNameOf } from "~/ui/avatar";
import { ErrorPage } from "~/error-page";
import { EmptyState } from "~/ui/item-card";
import { ProfileFields } from "~/members/components/profile-fields";
import { MESSAGES } from "~/messages";
import { formatCalendarDate, formatDateTime } from "~/kernel/time";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { requireProfile } from "~/guards.server";
import { Field, FieldError } from "~/ui/field";
import { UploadControl, useImageUpload } from "~/uploads/components/image-input";
import { CheckInPass } from "~/attendance/components/check-in-pass";
import { MAIL_TOPIC_LABELS, MAIL_TOPICS } from "~/mail/topics";
import type { Route } from "./+types/profile";
import { readForm } from "~/kernel/read-form.server";
import { loadProfile, profileAction } from "./profile.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadProfile(request, await requireProfile(request, context), context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireProfile(request, context);
  return profileAction(request, user, await readForm(request), context);
}

export function meta() {
  return [{ title: "Mi perfil — Ayllu" }, { name: "robots", content: "noindex" }];
}

/**
 * 'Subir mi foto' (it becomes the member's photo at once) and, with one uploaded, 'Quitar mi
 * foto', back to the account's. Uploading needs JavaScript; removing does not.
 */
function ProfilePhoto({ hasOwnPhoto }: { hasOwnPhoto: boolean }) {
  const { state, upload } = useImageUpload("perfil");
  const revalidator = useRevalidator();
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  return (
    <div className="profile-photo">
      {interactive ? (
        <UploadControl
          id="perfil-foto"
          label={hasOwnPhoto ? "Cambiar mi foto" : "Subir mi foto"}
          multiple={false}
          state={state}
          describedBy={state.error ? "perfil-foto-error" : undefined}
          onFiles={async (files) => {
            const [path] = await upload(files.slice(0, 1));
            if (path) await revalidator.revalidate();
          }}
        />
      ) : null}
      {hasOwnPhoto ? (
        <Form method="post">
          <input type="hidden" name="intent" value="photoRemove" />
          <button type="submit" className="button button-ghost button-small">
            Quitar mi foto
          </button>
        </Form>
      ) : null}
      <FieldError id="perfil-foto-error" message={state.error ?? undefined} />
    </div>
  );
}

function Detail({ term, value }: { term: string; value: string }) {
  return (
    <div className="detail">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, events, waiting, hasCalendarFeed, timeZone, mailTopics } = loaderData;
  const navigation = useNavigation();
  const deleteResult =
    actionData && "intent" in actionData && actionData.intent === "deleteAccount"
      ? actionData
      : undefined;
  const calendarLink =
    actionData && "calendarLink" in actionData ? actionData.calendarLink : undefined;
  const editResult = actionData && !("intent" in actionData) ? actionData : undefined;
  const editing = loaderData.editing || editResult !== undefined;
  const formRef = useFocusFirstError<HTMLFormElement>(editResult);
  const name = displayNameOf(profile);
  return (
    <div className="page page-narrow profile">
      <section className="card" aria-labelledby="profile-title">
        <div className="profile-heading">
          <Avatar name={name} photoURL={profile.photoURL} size={64} />
          <div>
            <h1 id="profile-title">{editing ? "Editar Perfil" : "Mi perfil"}</h1>
            <p className="muted">{profile.email}</p>
          </div>
        </div>
        <ProfilePhoto hasOwnPhoto={profile.hasOwnPhoto} />
        {editing ? (
          <Form method="post" noValidate className="form" ref={formRef}>
            <ProfileFields
              values={(editResult?.values as Record<string, string>) ?? profile}
              errors={editResult?.fieldErrors ?? {}}
              required={false}
            />
            <div className="form-actions">
              <button type="submit" className="button" disabled={navigation.state === "submitting"}>
                Guardar Cambios
              </button>
              <Link to="/profile" className="button button-ghost" replace>
                Cancelar
              </Link>
            </div>
          </Form>
        ) : (
          <>
            <dl className="details">
              <Detail term="Nombre de usuario" value={profile.displayName || "—"} />
              <Detail term="Nombre registrado" value={profile.nombreCompleto ?? "—"} />
              <Detail
                term="Fecha de nacimiento"
                value={profile.fechaNacimiento ? formatCalendarDate(profile.fechaNacimiento) : "—"}
              />
              <Detail term="País" value={profile.pais ?? "—"} />
              <Detail term="Ciudad" value={profile.ciudad ?? "—"} />
              <Detail term="Género" value={profile.genero ?? "—"} />
              <Detail term="Habilidades" value={profile.habilidades || "No especificadas"} />
            </dl>
            <Link to="/profile?editar=1" className="button">
              Editar Perfil
            </Link>
          </>
        )}
      </section>
      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Eventos Participando</h2>
        {events.length === 0 ? (
          <EmptyState title="No estás participando en ningún evento aún.">
            <Link className="button button-secondary" to="/eventos">
              Ver los próximos eventos
            </Link>
          </EmptyState>
        ) : (
          <ul className="event-list">
            {events.map((event) => (
              <li key={event.id}>
                <span>
                  <strong>{event.nombreEvento}</strong>
                  <br />
                  <span className="muted">{formatDateTime(event.startsAt, timeZone)}</span>
                </span>
                <span className="profile-event-actions">
                  {event.ended ? (
                    <span className={event.attended ? "badge profile-attended" : "badge"}>
                      {event.attended ? "Asistió" : "Inscrito"}
                    </span>
                  ) : null}
                  {event.ended && event.attended ? (
                    <a
                      href={`/detalles/${event.id}/certificado.pdf`}
                      download
                      className="button button-small"
                      aria-label={`Descargar certificado de ${event.nombreEvento}`}
                    >
                      Descargar certificado
                    </a>
                  ) : null}
                  <Link
                    to={`/detalles/${event.id}`}
                    className="button button-secondary button-small"
                    aria-label={`Ver Detalles de ${event.nombreEvento}`}
                  >
                    Ver Detalles
                  </Link>
                </span>
                {event.checkIn ? (
                  <details className="profile-checkin">
                    <summary>Mi código de registro</summary>
                    <CheckInPass qr={event.checkIn.qr} code={event.checkIn.code} />
                  </details>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {waiting.length > 0 ? (
        <section className="card" aria-labelledby="waiting-title">
          <h2 id="waiting-title">En lista de espera</h2>
          <ul className="event-list">
            {waiting.map((event) => (
              <li key={event.id}>
                <span>
                  <strong>{event.nombreEvento}</strong>
                  <br />
                  <span className="muted">
                    {formatDateTime(event.startsAt, timeZone)} · posición {event.position}
                  </span>
                </span>
                <Link
                  to={`/detalles/${event.id}`}
                  className="button button-secondary button-small"
                  aria-label={`Ver Detalles de ${event.nombreEvento}`}
                >
                  Ver Detalles
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="card" aria-labelledby="calendar-title">
        <h2 id="calendar-title">Mi calendario</h2>
        <p>
          Tus eventos en tu aplicación de calendario, con un enlace privado: quien lo tenga ve en
          qué eventos participas.
        </p>
        {calendarLink ? (
          <>
            <p role="status">
              Este es tu enlace. Cópialo ahora: por seguridad no lo volveremos a mostrar.
            </p>
            <Field id="calendar-link" name="calendarLink" label="Enlace privado del calendario">
              {(control) => <input {...control} type="url" readOnly value={calendarLink} />}
            </Field>
          </>
        ) : hasCalendarFeed ? (
          <p className="muted">
            Ya tienes un enlace privado. Si lo perdiste o alguien más lo tiene, renuévalo: el
            anterior dejará de funcionar.
          </p>
        ) : null}
        <Form method="post" action="/profile" className="form-actions">
          <input type="hidden" name="intent" value="renewCalendar" />
          {calendarLink ? (
            <a className="button" href={calendarLink.replace(/^https?:/, "webcal:")}>
              Suscribirse al calendario
            </a>
          ) : null}
          <button
            type="submit"
            className={calendarLink ? "button button-ghost" : "button button-secondary"}
            disabled={navigation.state === "submitting"}
          >
            {hasCalendarFeed || calendarLink ? "Renovar enlace" : "Crear enlace del calendario"}
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="mail-title">
        <h2 id="mail-title">Correos</h2>
        <p>
          Te escribimos a <strong className="profile-mail-address">{profile.email}</strong>. Cada
          correo trae también un enlace para darte de baja con un clic.
        </p>
        <Form method="post" action="/profile" className="form">
          <input type="hidden" name="intent" value="mailPreferences" />
          <fieldset className="check-list">
            <legend>Quiero recibir:</legend>
            {MAIL_TOPICS.map((topic) => (
              <label key={topic} className="check">
                <input
                  type="checkbox"
                  name="activos"
                  value={topic}
                  defaultChecked={mailTopics.includes(topic)}
                />
                <span>{MAIL_TOPIC_LABELS[topic]}</span>
              </label>
            ))}
          </fieldset>
          <div className="form-actions">
            <button
              type="submit"
              className="button button-secondary"
              disabled={navigation.state === "submitting"}
            >
              Guardar preferencias
            </button>
          </div>
        </Form>
      </section>
      <section className="card" aria-labelledby="my-data-title">
        <h2 id="my-data-title">Mis datos</h2>
        <p>
          Descarga todo lo que guardamos sobre ti, o elimina tu cuenta: tu perfil, tus sesiones, tus
          participaciones y tus lugares en listas de espera.
        </p>
        <div className="form-actions">
          <a href="/profile/datos" download className="button button-ghost">
            Descargar mis datos
          </a>
          <Link to="/profile?eliminar=1" className="button button-ghost" preventScrollReset>
            Eliminar mi cuenta
          </Link>
        </div>
      </section>
      <section className="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sesiones</h2>
        <p>
          Si iniciaste sesión en otro dispositivo y ya no lo usas, cierra la sesión en todos ellos,
          también en este.
        </p>
        <Form method="post" action="/profile" className="form-actions">
          <input type="hidden" name="intent" value="logoutEverywhere" />
          <button
            type="submit"
            className="button button-ghost"
            disabled={navigation.state === "submitting"}
          >
            Cerrar sesión en todos los dispositivos
          </button>
        </Form>
      </section>
      {loaderData.confirmingDelete && !deleteResult ? (
        <Dialog title="Eliminar mi cuenta" closeTo="/profile" role="alertdialog">
          <p>{MESSAGES.accountDeleteConfirm}</p>
          <Form method="post" action="/profile" className="form-actions">
            <input type="hidden" name="intent" value="deleteAccount" />
            <input type="hidden" name="confirmar" value="eliminar" />
            <button
              type="submit"
              className="button button-danger"
              disabled={navigation.state === "submitting"}
            >
              Eliminar mi cuenta
            </button>
            <Link to="/profile" preventScrollReset className="button button-ghost">
              Cancelar
            </Link>
          </Form>
        </Dialog>
      ) : null}
      {actionData && "formError" in actionData && actionData.formError ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.formError} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <ErrorPage error={error} failure={{ title: "Mi perfil", text: MESSAGES.profileCouldNotLoad }}>
      {isRouteErrorResponse(error) ? null : <AlertDialog message={MESSAGES.profileLoadFailed} />}
    </ErrorPage>
  );
}
