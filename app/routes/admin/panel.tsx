// /admin — the admin panel (§5): users, the event form, the published events and their dialogs.
// What it shows and what its forms do live in panel.server.ts; its parts in components/admin/.
import { AdminEventList } from "~/events/components/admin-event-list";
import { DeleteEventDialog } from "~/events/components/delete-event-dialog";
import { GalleryDialog } from "~/events/components/gallery-dialog";
import { panelHref } from "~/kernel/panel-href";
import { UserDetailsDialog } from "~/members/components/user-details-dialog";
import { UsersSection } from "~/members/components/users-section";
import { AlertDialog } from "~/ui/dialog";
import { ErrorPage } from "~/error-page";
import { EventForm, type EventFormValues } from "~/events/components/event-form";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { requireAdmin } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { loadPanel, panelAction } from "./panel.server";
import type { Route } from "./+types/panel";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  return loadPanel(request, admin, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  return panelAction(await readForm(request), admin, context);
}

export function meta() {
  return [{ title: "Panel de Administración — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function AdminPanel({ loaderData, actionData }: Route.ComponentProps) {
  const {
    users,
    usersPage,
    events,
    eventsPage,
    roleEvents,
    userDetails,
    gallery,
    removingImage,
    editing,
    deleting,
    timeZone,
  } = loaderData;
  const params = new URLSearchParams(loaderData.search);
  const eventAction =
    actionData && (actionData.intent === "publish" || actionData.intent === "update")
      ? actionData
      : null;
  const galleryAction = actionData?.intent === "galleryAdd" ? actionData : null;
  const formRef = useFocusFirstError<HTMLFormElement>(
    eventAction?.fieldErrors && Object.keys(eventAction.fieldErrors).length > 0
      ? eventAction
      : null,
  );
  const editId = eventAction?.intent === "update" ? eventAction.eventId : editing?.id;
  const formValues: EventFormValues = (eventAction?.values as EventFormValues | undefined) ??
    editing?.values ?? { tipoEvento: "Presencial", enlacesVirtuales: [""] };
  const mode = editId ? "update" : "publish";
  const closeHref = panelHref(params, {});
  const currentQuery = `?${params.toString()}`;

  return (
    <div className="page admin-panel">
      <h1>Panel de Administración</h1>

      <UsersSection users={users} usersPage={usersPage} params={params} />

      <section className="card" aria-labelledby="event-form-title" id="evento-form">
        <h2 id="event-form-title">
          {mode === "update" ? "Editar Evento" : "Publicar Nuevo Evento"}
        </h2>
        <EventForm
          // A new event (one more in the list) empties the form for the next one.
          key={editId ?? `nuevo-${eventsPage.total}`}
          mode={mode}
          eventId={editId}
          values={formValues}
          errors={eventAction?.fieldErrors ?? {}}
          timeZone={timeZone}
          formRef={formRef}
        />
      </section>

      <AdminEventList events={events} eventsPage={eventsPage} params={params} timeZone={timeZone} />

      {userDetails ? (
        <UserDetailsDialog
          userDetails={userDetails}
          closeHref={closeHref}
          currentQuery={currentQuery}
          timeZone={timeZone}
          roleKinds={loaderData.roleKinds}
          events={roleEvents}
        />
      ) : null}

      {gallery ? (
        <GalleryDialog
          gallery={gallery}
          removingImage={removingImage}
          galleryAction={galleryAction}
          params={params}
          closeHref={closeHref}
        />
      ) : null}

      {deleting ? <DeleteEventDialog event={deleting} closeHref={closeHref} /> : null}

      {actionData?.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
