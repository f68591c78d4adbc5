import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AlertDialog } from "~/components/alert-dialog";
import { Avatar, displayNameOf } from "~/components/avatar";
import { ProfileFields } from "~/components/profile-fields";
import { parseForm } from "~/lib/forms";
import { MESSAGES } from "~/lib/messages";
import { ProfileSchema } from "~/lib/schemas";
import { formatCalendarDate, formatDateTime } from "~/lib/time";
import { useFocusFirstError } from "~/lib/use-focus-first-error";
import { cookieSettings, requireProfile } from "#server/auth/guards.server";
import { flashCookie } from "#server/http/flash.server";
import { listParticipatingEvents, saveProfile } from "#server/models/user.server";
import type { Route } from "./+types/profile";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireProfile(request, context);
  const editing = new URL(request.url).searchParams.get("editar") === "1";
  const events = await listParticipatingEvents(context.db, user.id);
  return {
    editing,
    timeZone: context.config.siteTimezone,
    profile: {
      displayName: user.displayName,
      email: user.email,
      photoURL: user.photoURL,
      nombreCompleto: user.nombreCompleto,
      fechaNacimiento: user.fechaNacimiento,
      pais: user.pais,
      ciudad: user.ciudad,
      genero: user.genero,
      habilidades: user.habilidades,
    },
    events: events.map((e) => ({
      id: e.id,
      nombreEvento: e.nombreEvento,
      startsAt: e.startsAt.toISOString(),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireProfile(request, context);
  const form = await request.formData();
  const result = parseForm(ProfileSchema, form);
  if (!result.ok) {
    return data(
      { fieldErrors: result.fieldErrors, formError: result.formError, values: result.values },
      { status: 400 },
    );
  }
  try {
    await saveProfile(context.db, user.id, result.data);
  } catch (error) {
    console.error("No se pudo actualizar el perfil:", error);
    return data(
      { fieldErrors: {}, formError: MESSAGES.profileUpdateFailed, values: result.data },
      { status: 500 },
    );
  }
  return redirect("/profile", {
    headers: { "Set-Cookie": flashCookie("profileUpdated", cookieSettings(context).secure) },
  });
}

export function meta() {
  return [{ title: "Mi perfil — Ayllu" }, { name: "robots", content: "noindex" }];
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
  const { profile, events, timeZone } = loaderData;
  const navigation = useNavigation();
  const editing = loaderData.editing || actionData !== undefined;
  const formRef = useFocusFirstError<HTMLFormElement>(actionData);
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
        {editing ? (
          <Form method="post" noValidate className="form" ref={formRef}>
            <ProfileFields
              values={(actionData?.values as Record<string, string>) ?? profile}
              errors={actionData?.fieldErrors ?? {}}
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
          <p>No estás participando en ningún evento aún.</p>
        ) : (
          <ul className="event-list">
            {events.map((event) => (
              <li key={event.id}>
                <span>
                  <strong>{event.nombreEvento}</strong>
                  <br />
                  <span className="muted">{formatDateTime(event.startsAt, timeZone)}</span>
                </span>
                <Link
                  to={`/detalles/${event.id}`}
                  className="button button-small"
                  aria-label={`Ver Detalles de ${event.nombreEvento}`}
                >
                  Ver Detalles
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      {actionData?.formError ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.formError} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="page page-narrow">
      <section className="card" aria-labelledby="profile-error-title">
        <h1 id="profile-error-title">Mi perfil</h1>
        <p>{MESSAGES.profileCouldNotLoad}</p>
      </section>
      <AlertDialog message={MESSAGES.profileLoadFailed} />
    </div>
  );
}
