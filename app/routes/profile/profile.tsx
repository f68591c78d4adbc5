// /profile (§3): the member's profile and its edit form, their events and waiting lists, their
// calendar feed, mail choices, data and sessions. What it shows and what its forms do live in
// profile.server.ts (one handler per intent); its parts are components of their domains.
import type { ReactNode } from "react";
import { Form, isRouteErrorResponse, Link, useNavigation } from "react-router";
import { CalendarFeed } from "~/events/components/calendar-feed";
import { MyEvents } from "~/attendance/components/my-events";
import { MyResults } from "~/competitions/components/my-results";
import { ErrorPage } from "~/error-page";
import { requireProfile } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { formatCalendarDate } from "~/kernel/time";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { MailPreferences } from "~/mail/components/mail-preferences";
import { AccountSections, DeleteAccountDialog } from "~/members/components/account-sections";
import { EmailAddress } from "~/ui/email-address";
import { ProfileFields } from "~/members/components/profile-fields";
import { ProfilePhoto } from "~/members/components/profile-photo";
import { MESSAGES } from "~/messages";
import { AlertDialog } from "~/ui/dialog";
import { roleText, type RoleRow } from "~/members/components/member-roles";
import { Avatar, displayNameOf } from "~/ui/avatar";
import { loadProfile, profileAction } from "./profile.server";
import type { Route } from "./+types/profile";

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

function Detail({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div className="detail">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** 'Mis roles': what this member runs on the site, with a link to each event's page. */
function MyRoles({ isAdmin, roles }: { isAdmin: boolean; roles: readonly RoleRow[] }) {
  if (!isAdmin && roles.length === 0) return null;
  return (
    <section className="card" aria-labelledby="my-roles-title" id="mis-roles">
      <h2 id="my-roles-title">Mis roles</h2>
      <ul className="plain-list">
        {isAdmin ? <li>Administración del sitio</li> : null}
        {roles.map((r) => (
          <li key={`${r.kind}-${r.eventId ?? ""}-${r.categoryId ?? ""}`}>
            {r.kind === "judge" && r.eventId && r.categoryId ? (
              // A judge goes straight to the category's screen (decision 059).
              <a href={`/admin/eventos/${r.eventId}/jurado/${r.categoryId}`}>
                {roleText(r)}: anotar resultados
              </a>
            ) : r.eventId ? (
              <Link to={`/detalles/${r.eventId}`}>{roleText(r)}</Link>
            ) : (
              roleText(r)
            )}
          </li>
        ))}
      </ul>
    </section>
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
  const busy = navigation.state === "submitting";
  return (
    <div className="page page-narrow profile">
      <section className="card" aria-labelledby="profile-title">
        <div className="profile-heading">
          <Avatar name={name} photoURL={profile.photoURL} size={64} />
          <div>
            <h1 id="profile-title">{editing ? "Editar Perfil" : "Mi perfil"}</h1>
            <p className="muted">
              <EmailAddress email={profile.email} />
            </p>
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
              <button type="submit" className="button" disabled={busy}>
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
              <Detail
                term="Nombre de usuario"
                value={profile.displayName ? <EmailAddress email={profile.displayName} /> : "—"}
              />
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
      <MyRoles isAdmin={loaderData.isAdmin} roles={loaderData.roles} />
      <MyEvents events={events} waiting={waiting} timeZone={timeZone} />
      <MyResults results={loaderData.competitionResults} />
      <CalendarFeed calendarLink={calendarLink} hasCalendarFeed={hasCalendarFeed} busy={busy} />
      <MailPreferences email={profile.email} mailTopics={mailTopics} busy={busy} />
      <AccountSections busy={busy} />
      {loaderData.confirmingDelete && !deleteResult ? <DeleteAccountDialog busy={busy} /> : null}
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
