// The admin panel (/admin) on the server: what its page shows, and its form posts, one named
// function per `intent`. The route checks who is asking, reads the form and dispatches here.
import { data, redirect, type AppLoadContext } from "react-router";
import type { EventFormValues } from "~/events/components/event-form";
import { parseForm, type FieldErrors } from "~/kernel/forms";
import { MESSAGES, type MessageKey } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { isUuid } from "~/kernel/checks";
import { checkEventLinks, EventSchema, GalleryImageSchema } from "~/events/schemas";
import type { User } from "~/db/schema.server";
import {
  boundedSearch,
  getUserDetails,
  listUsers,
  SEARCH_MAX,
  setAdmin,
} from "~/members/admin-users.server";
import { addGalleryImage, removeGalleryImage } from "~/events/gallery.server";
import { createEvent, deleteEvent, updateEvent } from "~/events/event-commands.server";
import {
  ADMIN_EVENTS_PAGE_SIZE,
  EventNotFoundError,
  eventState,
  getEvent,
  hasEnded,
  listEventChoices,
  listEventsForAdmin,
} from "~/events/event.server";
import { EVENT_PAGE, EVENT_SEARCH } from "~/kernel/panel-href";
import { pageNumber } from "~/kernel/search";
import { releaseAfterChange } from "~/uploads/upload.server";
import { grantRole, revokeRole, rolesOf } from "~/members/roles.server";
import { ROLE_KIND_NAMES, ROLE_KINDS } from "~/kernel/permissions";
import { zonedDateTime } from "~/kernel/time";
import { redirectWithFlash } from "~/flash.server";
import { priceFieldValue } from "~/payments/money";
import { answerRefusal, fieldErrorOf, Refusal } from "~/kernel/errors";

type PanelActionData = {
  intent: string;
  message?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, unknown>;
  eventId?: string;
};

interface Post {
  intent: string;
  form: FormData;
  admin: User;
  context: AppLoadContext;
  /** The page the form is on: the panel, or one event's management page (/admin/eventos/:id). */
  base: string;
}

/** What the panel shows: users, events, and the dialog its address opens. */
export async function loadPanel(request: Request, admin: User, context: AppLoadContext) {
  const params = new URL(request.url).searchParams;
  // A search longer than the lists can use goes back to an address holding only what is used, so
  // that no link or form of the page copies the rest.
  let cut = false;
  for (const key of ["q", EVENT_SEARCH]) {
    const value = params.get(key);
    if (value !== null && value.length > SEARCH_MAX) {
      params.set(key, boundedSearch(value));
      cut = true;
    }
  }
  if (cut) throw redirect(`/admin?${params.toString()}`);
  const [users, events] = await Promise.all([
    listUsers(context.db, admin, {
      search: params.get("q") ?? "",
      page: pageNumber(params.get("pagina")),
    }),
    listEventsForAdmin(context.db, admin, {
      search: params.get(EVENT_SEARCH) ?? "",
      page: pageNumber(params.get(EVENT_PAGE)),
    }),
  ]);

  const userId = params.get("usuario");
  const userDetails = userId !== null ? await getUserDetails(context.db, admin, userId) : null;
  if (userId !== null && !userDetails) notFound(MESSAGES.userNotFound);
  const [userRoles, roleEvents] = userDetails
    ? await Promise.all([
        rolesOf(context.db, admin, userDetails.id),
        listEventChoices(context.db, admin, context.now()),
      ])
    : [[], []];

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
      // A judge is given on the event's page, where its categories are (decision 057).
      roleKinds: ROLE_KIND_NAMES.flatMap((kind) => {
        const k = ROLE_KINDS[kind];
        return k.grantable && k.scope !== "category" ? [{ kind, ...k, scope: k.scope }] : [];
      }),
      search: params.toString(),
      timeZone: context.config.siteTimezone,
      users: users.users,
      usersPage: {
        total: users.total,
        page: users.page,
        pageCount: users.pageCount,
        q: users.search,
      },
      eventsPage: {
        total: events.total,
        page: events.page,
        pageCount: events.pageCount,
        pageSize: ADMIN_EVENTS_PAGE_SIZE,
        q: events.search,
      },
      roleEvents,
      events: events.events.map((e) => ({
        ...e,
        startsAt: e.startsAt.toISOString(),
        endsAt: e.endsAt.toISOString(),
        state: eventState(e, context.now()),
      })),
      userDetails: userDetails
        ? {
            ...userDetails,
            // Past events say whether the member came ('Asistió') or only registered ('Inscrito').
            events: userDetails.events.map((e) => ({
              id: e.id,
              nombreEvento: e.nombreEvento,
              startsAt: e.startsAt.toISOString(),
              ended: hasEnded(e, context.now()),
              attended: e.checkedInAt !== null,
            })),
            roles: userRoles.map((r) => ({
              grantId: r.grantId,
              kind: r.kind,
              label: r.label,
              eventId: r.eventId,
              eventName: r.eventName,
              categoryId: r.categoryId,
              categoryName: r.categoryName,
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
              fechaFin: zonedDateTime(editEvent.endsAt, context.config.siteTimezone).date,
              horaFin: zonedDateTime(editEvent.endsAt, context.config.siteTimezone).time,
              capacity: editEvent.capacity,
              price: priceFieldValue(editEvent.priceCents),
              holdHours: String(editEvent.holdHours),
              enlaceGrupo: editEvent.chatLink ?? "",
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

const reply = (body: PanelActionData, status: number) => data(body, { status });

function back(context: AppLoadContext, to: string, key: MessageKey) {
  return redirectWithFlash(context, to, key);
}

/** 'Publicar Evento' and 'Actualizar Evento', and their link rows changed without JavaScript. */
async function saveEvent({ intent, form, admin, context, base }: Post) {
  const eventId = form.get("eventId");
  if (intent === "update" && !isUuid(eventId)) notFound(MESSAGES.eventNotFound);
  const editedId = intent === "update" ? String(eventId) : undefined;
  // Without JavaScript, '+ Añadir otro enlace' and 'Quitar' post the form back: change the rows, save nothing.
  const linkAction = form.get("linkAction");
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
        eventId: editedId,
      },
      200,
    );
  }
  const result = parseForm(EventSchema, form, {
    listFields: ["enlacesVirtuales"],
    ignore: ["eventId", "linkAction", "returnTo"],
  });
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
        eventId: editedId,
      },
      400,
    );
  }
  const before = intent === "publish" ? null : await getEvent(context.db, eventId);
  try {
    if (intent === "publish")
      await createEvent(context.db, admin, result.data, context.config.siteTimezone);
    else await updateEvent(context.db, admin, eventId, result.data, context.config.siteTimezone);
  } catch (error) {
    if (error instanceof EventNotFoundError) answerRefusal(error);
    if (error instanceof Refusal && error.field) {
      return reply(
        {
          intent,
          fieldErrors: fieldErrorOf(error),
          values: result.data,
          eventId: editedId,
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
        message: intent === "publish" ? MESSAGES.eventPublishFailed : MESSAGES.eventUpdateFailed,
      },
      500,
    );
  }
  await releaseAfterChange(context, before);
  return back(context, base, intent === "publish" ? "eventPublished" : "eventUpdated");
}

async function removeEvent({ intent, form, admin, context }: Post) {
  const before = await getEvent(context.db, form.get("eventId"));
  try {
    await deleteEvent(context.db, admin, form.get("eventId"));
  } catch (error) {
    if (error instanceof EventNotFoundError) answerRefusal(error);
    console.error("No se pudo eliminar el evento:", error);
    return reply({ intent, message: MESSAGES.eventDeleteFailed }, 500);
  }
  await releaseAfterChange(context, before);
  return back(context, "/admin", "eventDeleted");
}

async function addImage({ intent, form, admin, context, base }: Post) {
  const eventId = form.get("eventId");
  if (!isUuid(eventId)) notFound(MESSAGES.eventNotFound);
  const result = parseForm(GalleryImageSchema, form, {
    ignore: ["eventId", "returnTo"],
    listFields: ["url"],
  });
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
    if (error instanceof EventNotFoundError) answerRefusal(error);
    console.error("No se pudo agregar la imagen:", error);
    return reply({ intent, message: MESSAGES.galleryAddFailed, values: result.data, eventId }, 500);
  }
  return back(context, `${base}?galeria=${eventId}`, "galleryImageAdded");
}

async function removeImage({ intent, form, admin, context, base }: Post) {
  const eventId = form.get("eventId");
  if (!isUuid(eventId)) notFound(MESSAGES.eventNotFound);
  const before = await getEvent(context.db, eventId);
  try {
    await removeGalleryImage(context.db, admin, eventId, form.get("imageId"));
  } catch (error) {
    if (error instanceof EventNotFoundError) notFound("Imagen no encontrada.");
    console.error("No se pudo eliminar la imagen:", error);
    return reply({ intent, message: MESSAGES.galleryRemoveFailed, eventId }, 500);
  }
  await releaseAfterChange(
    context,
    before?.gallery.find((i) => i.id === form.get("imageId")),
  );
  return back(context, `${base}?galeria=${eventId}`, "galleryImageRemoved");
}

/** 'Hacer administrador' and 'Quitar administrador'. */
async function changeAdmin({ intent, form, admin, context }: Post) {
  const userId = form.get("userId");
  const grant = intent === "grantAdmin";
  try {
    await setAdmin(context.db, admin, userId, grant, form.get("visto") ?? "");
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.status === 404) answerRefusal(error);
    return reply({ intent, message: error.message }, error.status);
  }
  // An admin who revoked their own rights can no longer see the panel.
  if (userId === admin.id && !grant) return back(context, "/inicio", "adminRevoked");
  return back(context, memberReturn(form, userId), grant ? "adminGranted" : "adminRevoked");
}

/**
 * Where a change on a member's details goes back to: the panel as it was (its searches and pages,
 * so that the lists and their search boxes still agree), with the member's details open.
 */
function memberReturn(form: FormData, userId: unknown): string {
  const returnTo = form.get("returnTo");
  return typeof returnTo === "string" &&
    /^\?[\w=&%.+-]*$/.test(returnTo) &&
    returnTo.includes("usuario=")
    ? `/admin${returnTo}`
    : `/admin?usuario=${String(userId)}`;
}

/** 'Dar rol' and 'Quitar' on a member's details: a role kind, and the event of kinds scoped to one. */
async function changeRole({ intent, form, admin, context }: Post) {
  const target = {
    userId: form.get("userId"),
    kind: form.get("kind"),
    eventId: form.get("eventId"),
    categoryId: form.get("categoryId"),
  };
  try {
    // What the screen showed (decision 064): the member without the role, or the grant itself.
    const seen = form.get("visto") ?? "";
    if (intent === "grantRole") await grantRole(context.db, admin, target, seen);
    else await revokeRole(context.db, admin, target, seen);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return reply({ intent, message: error.message }, error.status);
  }
  return back(
    context,
    memberReturn(form, target.userId),
    intent === "grantRole" ? "roleGranted" : "roleRevoked",
  );
}

type Answer = Response | ReturnType<typeof reply>;

const PANEL_ACTIONS: Record<string, (post: Post) => Promise<Answer>> = {
  publish: saveEvent,
  update: saveEvent,
  delete: removeEvent,
  galleryAdd: addImage,
  galleryRemove: removeImage,
  grantAdmin: changeAdmin,
  revokeAdmin: changeAdmin,
  grantRole: changeRole,
  revokeRole: changeRole,
};

/** Runs the handler the form's `intent` names; an unknown intent is a 400. */
export async function panelAction(
  form: FormData,
  admin: User,
  context: AppLoadContext,
): Promise<Answer> {
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(PANEL_ACTIONS, intent) ? PANEL_ACTIONS[intent] : undefined;
  if (!handler) return reply({ intent, message: MESSAGES.unknownAction }, 400);
  return handler({ intent, form, admin, context, base: "/admin" });
}

const EVENT_PAGE_ACTIONS: Record<string, (post: Post) => Promise<Answer>> = {
  update: saveEvent,
  galleryAdd: addImage,
  galleryRemove: removeImage,
};

/**
 * The event forms of one event's management page: editing it and its gallery, by the same
 * handlers as the panel (the models decide who may). The form's eventId must be the page's.
 */
export async function eventPageAction(
  eventId: string,
  form: FormData,
  actor: User,
  context: AppLoadContext,
): Promise<Answer | null> {
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(EVENT_PAGE_ACTIONS, intent) ? EVENT_PAGE_ACTIONS[intent] : null;
  if (!handler) return null;
  if (form.get("eventId") !== eventId) notFound(MESSAGES.eventNotFound);
  // The gallery's forms answer in the page's gallery section (decision 079).
  const base = `/admin/eventos/${eventId}${intent === "update" ? "" : "/galeria"}`;
  return handler({ intent, form, admin: actor, context, base });
}
