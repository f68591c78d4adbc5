import { data, Form, Link, redirect, useNavigation } from "react-router";
import { EventForm, type EventFormValues } from "~/components/events/event-form";
import { AlertDialog, Dialog, INITIAL_FOCUS } from "~/components/dialog";
import { ErrorPage } from "~/components/error-page";
import { Field } from "~/components/field";
import { notFound } from "~/lib/not-found";
import { parseForm, type FieldErrors } from "~/lib/forms";
import { MESSAGES, type MessageKey } from "~/lib/messages";
import { isUuid } from "~/lib/checks";
import { checkEventLinks, EventSchema, GalleryImageSchema } from "~/lib/schemas";
import { formatCalendarDate, formatDateTime } from "~/lib/time";
import { useFocusFirstError } from "~/lib/use-focus-first-error";
import { cookieSettings, requireAdmin } from "#server/auth/guards.server";
import { flashCookie } from "#server/auth/flash.server";
import {
  getUserDetails,
  LastAdminError,
  boundedSearch,
  listUsers,
  SEARCH_MAX,
  setAdmin,
  UserNotFoundError,
} from "#server/models/admin-users.server";
import {
  addGalleryImage,
  createEvent,
  EventDateOutOfRangeError,
  deleteEvent,
  EventNotFoundError,
  getEvent,
  hasEnded,
  listEventsForAdmin,
  removeGalleryImage,
  updateEvent,
} from "#server/models/event.server";
import type { Route } from "./+types/panel";
import { readForm } from "#server/http/read-form.server";

/** The panel's address with some query parameters changed (dialogs live in the URL). */
function panelHref(params: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams();
  for (const key of ["q", "pagina"]) {
    const value = params.get(key);
    if (value) next.set(key, value);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `/admin?${query}` : "/admin";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const params = new URL(request.url).searchParams;
  // A search longer than the list can use goes back to an address holding only what is used, so
  // that no link or form of the page copies the rest.
  const q = params.get("q");
  if (q !== null && q.length > SEARCH_MAX) {
    params.set("q", boundedSearch(q));
    throw redirect(`/admin?${params.toString()}`);
  }
  const page = Number(params.get("pagina") ?? "1");
  const [users, events] = await Promise.all([
    listUsers(context.db, admin, {
      search: params.get("q") ?? "",
      page: Number.isFinite(page) ? page : 1,
    }),
    listEventsForAdmin(context.db, admin),
  ]);

  const userId = params.get("usuario");
  const userDetails = userId !== null ? await getUserDetails(context.db, admin, userId) : null;
  if (userId !== null && !userDetails) notFound(MESSAGES.userNotFound);

  const loadEvent = async (key: string) => {
    const id = params.get(key);
    if (id === null) return null;
    const event = await getEvent(context.db, id);
    if (!event) notFound(MESSAGES.eventNotFound);
    return event;
  };
  const [galleryEvent, editEvent, deleting] = await Promise.all([
    loadEvent("galeria"),
    loadEvent("editar"),
    loadEvent("eliminar"),
  ]);
  const removingImageId = params.get("quitar");
  const removingImage =
    galleryEvent && removingImageId !== null
      ? (galleryEvent.gallery.find((i) => i.id === removingImageId) ??
        notFound(MESSAGES.eventNotFound))
      : null;

  return data(
    {
      adminId: admin.id,
      search: params.toString(),
      timeZone: context.config.siteTimezone,
      users: users.users,
      usersPage: {
        total: users.total,
        page: users.page,
        pageCount: users.pageCount,
        q: users.search,
      },
      events: events.map((e) => ({ ...e, startsAt: e.startsAt.toISOString() })),
      userDetails: userDetails
        ? {
            ...userDetails,
            // Past events say whether the member came ('Asistió') or only registered ('Inscrito').
            events: userDetails.events.map((e) => ({
              id: e.id,
              nombreEvento: e.nombreEvento,
              startsAt: e.startsAt.toISOString(),
              ended: hasEnded(e),
              attended: e.checkedInAt !== null,
            })),
          }
        : null,
      gallery: galleryEvent
        ? {
            id: galleryEvent.id,
            nombreEvento: galleryEvent.nombreEvento,
            images: galleryEvent.gallery,
          }
        : null,
      removingImage,
      editing: editEvent
        ? {
            id: editEvent.id,
            values: {
              nombreEvento: editEvent.nombreEvento,
              ubicacionEvento: editEvent.ubicacionEvento,
              tipoEvento: editEvent.tipoEvento,
              enlacesVirtuales: editEvent.enlacesVirtuales,
              fechaEvento: editEvent.fechaEvento,
              horaEvento: editEvent.horaEvento,
              capacity: editEvent.capacity,
              imagenEnlace: editEvent.imagenEnlace,
              ubicacionEspecifica: editEvent.ubicacionEspecifica ?? "",
              descripcion: editEvent.descripcion,
            } satisfies EventFormValues,
          }
        : null,
      deleting: deleting ? { id: deleting.id, nombreEvento: deleting.nombreEvento } : null,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

type ActionData = {
  intent: string;
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
  eventId?: string;
};

function back(to: string, key: MessageKey, secure: boolean) {
  return redirect(to, { headers: { "Set-Cookie": flashCookie(key, secure) } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const secure = cookieSettings(context).secure;
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const eventId = form.get("eventId");
  const reply = (body: ActionData, status: number) => data(body, { status });
  const returnTo = (() => {
    const value = form.get("returnTo");
    return typeof value === "string" && /^\?[\w=&%.-]*$/.test(value) ? `/admin${value}` : "/admin";
  })();

  switch (intent) {
    case "publish":
    case "update": {
      if (intent === "update" && !isUuid(eventId)) notFound(MESSAGES.eventNotFound);
      const linkAction = form.get("linkAction");
      const result = parseForm(EventSchema, form, {
        listFields: ["enlacesVirtuales"],
        ignore: ["eventId", "linkAction", "returnTo"],
      });
      // Without JavaScript, '+ Añadir otro enlace' and 'Quitar' post the form back: change the rows, save nothing.
      if (typeof linkAction === "string") {
        const links = form.getAll("enlacesVirtuales").map(String);
        if (linkAction === "add") links.push("");
        const remove = /^remove-(\d+)$/.exec(linkAction);
        if (remove && links.length > 1) links.splice(Number(remove[1]), 1);
        const values = Object.fromEntries(
          [...form].filter(([k, v]) => typeof v === "string" && k !== "enlacesVirtuales"),
        );
        return reply(
          {
            intent,
            values: { ...values, enlacesVirtuales: links },
            fieldErrors: {},
            eventId: intent === "update" ? String(eventId) : undefined,
          },
          200,
        );
      }
      if (!result.ok) {
        // The links are checked after the other fields pass; say what is wrong with them now too.
        const tipo = form.get("tipoEvento");
        if (!result.fieldErrors.enlacesVirtuales && (tipo === "Virtual" || tipo === "Hibrido")) {
          const links = checkEventLinks(tipo, form.getAll("enlacesVirtuales").map(String));
          if (!links.ok) result.fieldErrors.enlacesVirtuales = links.message;
        }
        return reply(
          {
            intent,
            fieldErrors: result.fieldErrors,
            message: result.formError ?? undefined,
            values: result.values,
            eventId: intent === "update" ? String(eventId) : undefined,
          },
          400,
        );
      }
      try {
        if (intent === "publish")
          await createEvent(context.db, admin, result.data, context.config.siteTimezone);
        else
          await updateEvent(context.db, admin, eventId, result.data, context.config.siteTimezone);
      } catch (error) {
        if (error instanceof EventNotFoundError) notFound(MESSAGES.eventNotFound);
        if (error instanceof EventDateOutOfRangeError) {
          return reply(
            {
              intent,
              fieldErrors: { [error.field]: error.message },
              values: result.data,
              eventId: intent === "update" ? String(eventId) : undefined,
            },
            400,
          );
        }
        console.error("No se pudo guardar el evento:", error);
        return reply(
          {
            intent,
            fieldErrors: {},
            values: result.data,
            message:
              intent === "publish" ? MESSAGES.eventPublishFailed : MESSAGES.eventUpdateFailed,
          },
          500,
        );
      }
      return back("/admin", intent === "publish" ? "eventPublished" : "eventUpdated", secure);
    }
    case "delete": {
      try {
        await deleteEvent(context.db, admin, eventId);
      } catch (error) {
        if (error instanceof EventNotFoundError) notFound(MESSAGES.eventNotFound);
        console.error("No se pudo eliminar el evento:", error);
        return reply({ intent, message: MESSAGES.eventDeleteFailed }, 500);
      }
      return back("/admin", "eventDeleted", secure);
    }
    case "gallery-add": {
      if (!isUuid(eventId)) notFound(MESSAGES.eventNotFound);
      const result = parseForm(GalleryImageSchema, form, { ignore: ["eventId", "returnTo"] });
      if (!result.ok)
        return reply(
          {
            intent,
            fieldErrors: result.fieldErrors,
            message: result.formError ?? undefined,
            values: result.values,
            eventId,
          },
          400,
        );
      try {
        await addGalleryImage(context.db, admin, eventId, result.data.url);
      } catch (error) {
        if (error instanceof EventNotFoundError) notFound(MESSAGES.eventNotFound);
        console.error("No se pudo agregar la imagen:", error);
        return reply(
          { intent, message: MESSAGES.galleryAddFailed, values: result.data, eventId },
          500,
        );
      }
      return back(`/admin?galeria=${eventId}`, "galleryImageAdded", secure);
    }
    case "gallery-remove": {
      if (!isUuid(eventId)) notFound(MESSAGES.eventNotFound);
      try {
        await removeGalleryImage(context.db, admin, eventId, form.get("imageId"));
      } catch (error) {
        if (error instanceof EventNotFoundError) notFound("Imagen no encontrada.");
        console.error("No se pudo eliminar la imagen:", error);
        return reply({ intent, message: MESSAGES.galleryRemoveFailed, eventId }, 500);
      }
      return back(`/admin?galeria=${eventId}`, "galleryImageRemoved", secure);
    }
    case "grant-admin":
    case "revoke-admin": {
      const userId = form.get("userId");
      try {
        await setAdmin(context.db, admin, userId, intent === "grant-admin");
      } catch (error) {
        if (error instanceof UserNotFoundError) notFound(MESSAGES.userNotFound);
        if (error instanceof LastAdminError)
          return reply({ intent, message: MESSAGES.lastAdmin }, 409);
        throw error;
      }
      // An admin who revoked their own rights can no longer see the panel.
      if (userId === admin.id && intent === "revoke-admin")
        return back("/inicio", "adminRevoked", secure);
      return back(
        returnTo.includes("usuario=") ? returnTo : `/admin?usuario=${userId}`,
        intent === "grant-admin" ? "adminGranted" : "adminRevoked",
        secure,
      );
    }
    default:
      return reply({ intent, message: "Acción desconocida." }, 400);
  }
}

export function meta() {
  return [{ title: "Panel de Administración — Ayllu" }, { name: "robots", content: "noindex" }];
}

const na = (value: string | null | undefined) => (value && value.trim() ? value : "N/A");

export default function AdminPanel({ loaderData, actionData }: Route.ComponentProps) {
  const {
    users,
    usersPage,
    events,
    userDetails,
    gallery,
    removingImage,
    editing,
    deleting,
    timeZone,
  } = loaderData;
  const params = new URLSearchParams(loaderData.search);
  const navigation = useNavigation();
  const eventAction =
    actionData && (actionData.intent === "publish" || actionData.intent === "update")
      ? actionData
      : null;
  const galleryAction = actionData?.intent === "gallery-add" ? actionData : null;
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

      <section className="card" aria-labelledby="users-title">
        <h2 id="users-title">Usuarios</h2>
        <Form method="get" className="search-form" role="search">
          <label htmlFor="user-search">Buscar por nombre o correo</label>
          <div className="search-row">
            <input
              id="user-search"
              type="search"
              name="q"
              defaultValue={usersPage.q}
              maxLength={100}
            />
            <button type="submit" className="button button-secondary button-small">
              Buscar
            </button>
          </div>
        </Form>
        {users.length === 0 ? (
          <p>
            {usersPage.q
              ? "Ningún usuario coincide con la búsqueda."
              : "No hay usuarios registrados."}
          </p>
        ) : (
          <>
            <p className="muted">{`${usersPage.total} ${usersPage.total === 1 ? "usuario" : "usuarios"}`}</p>
            <ul className="user-list">
              {users.map((u) => (
                <li key={u.id}>
                  <Link
                    to={panelHref(params, { usuario: u.id })}
                    preventScrollReset
                    className="user-row"
                  >
                    <span>
                      <strong>{u.nombreCompleto || u.displayName || "Usuario"}</strong>
                      <span className="muted user-email">{u.email}</span>
                    </span>
                    {u.isAdmin ? <span className="admin-badge">ADMIN</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        {usersPage.pageCount > 1 ? (
          <nav className="pagination" aria-label="Páginas de usuarios">
            {usersPage.page > 1 ? (
              <Link to={panelHref(params, { pagina: String(usersPage.page - 1) })}>Anterior</Link>
            ) : null}
            <span>{`Página ${usersPage.page} de ${usersPage.pageCount}`}</span>
            {usersPage.page < usersPage.pageCount ? (
              <Link to={panelHref(params, { pagina: String(usersPage.page + 1) })}>Siguiente</Link>
            ) : null}
          </nav>
        ) : null}
      </section>

      <section className="card" aria-labelledby="event-form-title" id="evento-form">
        <h2 id="event-form-title">
          {mode === "update" ? "Editar Evento" : "Publicar Nuevo Evento"}
        </h2>
        <EventForm
          // A new event (one more in the list) empties the form for the next one.
          key={editId ?? `nuevo-${events.length}`}
          mode={mode}
          eventId={editId}
          values={formValues}
          errors={eventAction?.fieldErrors ?? {}}
          timeZone={timeZone}
          formRef={formRef}
        />
      </section>

      <section className="card" aria-labelledby="events-title">
        <h2 id="events-title">Eventos Publicados</h2>
        {events.length === 0 ? (
          <p>No hay eventos publicados.</p>
        ) : (
          <ul className="admin-event-list">
            {events.map((event) => (
              <li key={event.id}>
                <div>
                  <strong>
                    <Link to={`/detalles/${event.id}`}>{event.nombreEvento}</Link>
                  </strong>
                  <span className="muted">{event.ubicacionEvento}</span>
                  <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
                </div>
                <div className="row-actions">
                  <Link
                    to={`/admin/eventos/${event.id}/participantes`}
                    className="button button-secondary button-small"
                    aria-label={`Participantes de ${event.nombreEvento}`}
                  >
                    Participantes
                  </Link>
                  <Link
                    to={panelHref(params, { galeria: event.id })}
                    preventScrollReset
                    className="button button-secondary button-small"
                    aria-label={`Galería de ${event.nombreEvento}`}
                  >
                    Galería
                  </Link>
                  <Link
                    to={`${panelHref(params, { editar: event.id })}#evento-form`}
                    className="button button-small button-ghost"
                    aria-label={`Editar ${event.nombreEvento}`}
                  >
                    Editar
                  </Link>
                  <Link
                    to={panelHref(params, { eliminar: event.id })}
                    preventScrollReset
                    className="button button-small button-danger"
                    aria-label={`Eliminar ${event.nombreEvento}`}
                  >
                    Eliminar
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      {userDetails ? (
        <Dialog title="Detalles del Usuario" closeTo={closeHref}>
          <dl className="details">
            {[
              ["Nombre de Google", na(userDetails.displayName)],
              ["Correo electrónico", na(userDetails.email)],
              ["Nombre completo", na(userDetails.nombreCompleto)],
              [
                "Fecha de nacimiento",
                userDetails.fechaNacimiento
                  ? formatCalendarDate(userDetails.fechaNacimiento)
                  : "N/A",
              ],
              ["País", na(userDetails.pais)],
              ["Ciudad", na(userDetails.ciudad)],
              ["Género", na(userDetails.genero)],
              ["Habilidades", na(userDetails.habilidades)],
              ["Administrador", userDetails.isAdmin ? "Sí" : "No"],
            ].map(([term, value]) => (
              <div className="detail" key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <h3>Eventos en los que participa</h3>
          {userDetails.events.length === 0 ? (
            <p>Este usuario no está participando en ningún evento.</p>
          ) : (
            <ul className="plain-list">
              {userDetails.events.map((e) => (
                <li key={e.id}>
                  <Link to={`/detalles/${e.id}`}>{e.nombreEvento}</Link> —{" "}
                  <time dateTime={e.startsAt}>{formatDateTime(e.startsAt, timeZone)}</time>
                  {e.ended ? (
                    <>
                      {" "}
                      <span className="badge">{e.attended ? "Asistió" : "Inscrito"}</span>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <Form method="post" className="form-actions" preventScrollReset>
            <input
              type="hidden"
              name="intent"
              value={userDetails.isAdmin ? "revoke-admin" : "grant-admin"}
            />
            <input type="hidden" name="userId" value={userDetails.id} />
            <input type="hidden" name="returnTo" value={currentQuery} />
            <button
              type="submit"
              className={userDetails.isAdmin ? "button button-danger" : "button"}
              disabled={navigation.state === "submitting"}
            >
              {userDetails.isAdmin ? "Quitar administrador" : "Hacer administrador"}
            </button>
          </Form>
        </Dialog>
      ) : null}

      {gallery ? (
        <Dialog title={`Galería de Imágenes para: ${gallery.nombreEvento}`} closeTo={closeHref}>
          {removingImage ? (
            <div className="confirm-box" role="group" aria-labelledby="gallery-remove-question">
              <p id="gallery-remove-question">{MESSAGES.galleryRemoveConfirm}</p>
              <img
                src={removingImage.url}
                alt=""
                width={50}
                height={50}
                className="thumb"
                referrerPolicy="no-referrer"
              />
              <Form
                method="post"
                action={`/admin?galeria=${gallery.id}`}
                className="form-actions"
                preventScrollReset
              >
                <input type="hidden" name="intent" value="gallery-remove" />
                <input type="hidden" name="eventId" value={gallery.id} />
                <input type="hidden" name="imageId" value={removingImage.id} />
                <button type="submit" className="button button-danger" {...INITIAL_FOCUS}>
                  Eliminar
                </button>
                <Link
                  to={panelHref(params, { galeria: gallery.id, quitar: null })}
                  preventScrollReset
                  className="button button-ghost"
                >
                  Cancelar
                </Link>
              </Form>
            </div>
          ) : (
            <Form
              method="post"
              action={`/admin?galeria=${gallery.id}`}
              noValidate
              className="form"
              preventScrollReset
            >
              <input type="hidden" name="intent" value="gallery-add" />
              <input type="hidden" name="eventId" value={gallery.id} />
              <Field
                id="gallery-url"
                name="url"
                label="URL de la imagen"
                required
                error={galleryAction?.fieldErrors?.url}
              >
                {(control) => (
                  <input
                    {...control}
                    type="url"
                    inputMode="url"
                    placeholder="https://"
                    defaultValue={
                      typeof galleryAction?.values?.url === "string" ? galleryAction.values.url : ""
                    }
                  />
                )}
              </Field>
              <div className="form-actions">
                <button
                  type="submit"
                  className="button"
                  disabled={navigation.state === "submitting"}
                >
                  Agregar Imagen
                </button>
              </div>
            </Form>
          )}
          {gallery.images.length === 0 ? (
            <p>No hay imágenes en la galería para este evento.</p>
          ) : (
            <ul className="gallery-admin-list">
              {gallery.images.map((image, i) => (
                <li key={image.id}>
                  <img
                    src={image.url}
                    alt=""
                    width={50}
                    height={50}
                    className="thumb"
                    referrerPolicy="no-referrer"
                  />
                  <a href={image.url} target="_blank" rel="noopener noreferrer" title={image.url}>
                    {image.url.slice(0, 40)}
                  </a>
                  <Link
                    to={panelHref(params, { galeria: gallery.id, quitar: image.id })}
                    preventScrollReset
                    className="button button-small button-danger"
                    aria-label={`Eliminar imagen ${i + 1}`}
                  >
                    Eliminar
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Dialog>
      ) : null}

      {deleting ? (
        <Dialog title="Eliminar evento" closeTo={closeHref} role="alertdialog">
          <p>{MESSAGES.eventDeleteConfirm}</p>
          <p>
            <strong>{deleting.nombreEvento}</strong>
          </p>
          <Form method="post" className="form-actions" preventScrollReset>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="eventId" value={deleting.id} />
            <button type="submit" className="button button-danger" {...INITIAL_FOCUS}>
              Eliminar
            </button>
            <Link to={closeHref} preventScrollReset className="button button-ghost">
              Cancelar
            </Link>
          </Form>
        </Dialog>
      ) : null}

      {actionData?.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
