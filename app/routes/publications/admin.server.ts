// The publications admin (/projectsandnotes) on the server: what its page shows, and its form posts,
// one named function per `intent`. The route checks who is asking, reads the form and dispatches here.
import { data, type AppLoadContext } from "react-router";
import type { z } from "zod";
import { PUBLICATION_MESSAGES } from "~/publications/messages";
import {
  NOTE_LISTS,
  NoteSchema,
  PROJECT_LISTS,
  ProjectSchema,
  RESOURCE_LISTS,
  ResourceSchema,
} from "~/publications/schemas";
import { isUuid } from "~/kernel/checks";
import { parseForm } from "~/kernel/forms";
import type {
  PublicationActionFailure,
  PublicationIntent,
} from "~/publications/components/publication-forms";
import type { MessageKey } from "~/messages";
import { notFound } from "~/kernel/not-found";
import type { User } from "~/db/schema.server";
import { listPublicationsForAdmin } from "~/publications/lists.server";
import { createNote, deleteNote, getNote } from "~/publications/note.server";
import { releaseAfterChange } from "~/uploads/upload.server";
import {
  createProject,
  deleteProject,
  getProject,
  updateProject,
} from "~/publications/project.server";
import {
  createResource,
  deleteResource,
  getResource,
  updateResource,
} from "~/publications/resource.server";
import { redirectWithFlash } from "~/flash.server";

function failure(status: number, body: PublicationActionFailure) {
  return data(body, { status });
}

type Answer = Response | ReturnType<typeof failure>;

/** What the page shows: the three lists, the item being edited, and the dialog its address opens. */
export async function loadPublicationsAdmin(
  request: Request,
  admin: User,
  context: AppLoadContext,
) {
  const params = new URL(request.url).searchParams;
  const lists = await listPublicationsForAdmin(context.db, admin);
  const { notes, resources, projects } = lists;
  const editResourceId = params.get("editarRecurso");
  const editProjectId = params.get("editarProyecto");
  const editingResource = editResourceId ? await getResource(context.db, editResourceId) : null;
  const editingProject = editProjectId ? await getProject(context.db, editProjectId) : null;
  if (editResourceId && !editingResource) notFound(PUBLICATION_MESSAGES.resourceNotFound);
  if (editProjectId && !editingProject) notFound(PUBLICATION_MESSAGES.projectNotFound);
  const confirmNote = params.get("eliminarNota");
  const confirmResource = params.get("eliminarRecurso");
  const confirmProject = params.get("eliminarProyecto");
  return {
    timeZone: context.config.siteTimezone,
    lists,
    editingResource: editingResource
      ? { ...editingResource, createdAt: editingResource.createdAt.toISOString(), updatedAt: null }
      : null,
    editingProject: editingProject
      ? { ...editingProject, createdAt: editingProject.createdAt.toISOString(), updatedAt: null }
      : null,
    showProjects: params.get("proyectos") === "1",
    confirm:
      confirmNote && notes.some((n) => n.id === confirmNote)
        ? ({ kind: "note", id: confirmNote } as const)
        : confirmResource && resources.some((r) => r.id === confirmResource)
          ? ({ kind: "resource", id: confirmResource } as const)
          : confirmProject && projects.some((p) => p.id === confirmProject)
            ? ({ kind: "project", id: confirmProject } as const)
            : null,
  };
}

interface Post {
  intent: PublicationIntent;
  /** The item's id, when the form names one. */
  id: string | null;
  form: FormData;
  admin: User;
  context: AppLoadContext;
}

function done(context: AppLoadContext, key: MessageKey) {
  return redirectWithFlash(context, "/projectsandnotes", key);
}

async function publishNote({ intent, id, form, admin, context }: Post): Promise<Answer> {
  if (id !== null)
    return failure(400, {
      intent,
      fieldErrors: {},
      formError: "Las notas no se pueden editar.",
      values: {},
    });
  const result = parseForm(NoteSchema, form, { listFields: NOTE_LISTS });
  if (!result.ok) return failure(400, { intent, ...result });
  try {
    await createNote(context.db, admin, result.data);
  } catch (error) {
    console.error("No se pudo publicar la nota:", error);
    return failure(500, {
      intent,
      fieldErrors: {},
      formError: PUBLICATION_MESSAGES.noteFailed,
      values: result.data,
    });
  }
  return done(context, "notePublished");
}

/** Publishing a resource or a project, or saving one being edited (the form names its id). */
function saver<S extends z.ZodType>(kind: {
  schema: S;
  lists: readonly string[];
  create: (db: AppLoadContext["db"], admin: User, input: z.output<S>) => Promise<unknown>;
  update: (
    db: AppLoadContext["db"],
    admin: User,
    id: string,
    input: z.output<S>,
  ) => Promise<unknown>;
  /** The item as it was, for the images an edit drops. */
  get: (db: AppLoadContext["db"], id: string) => Promise<unknown>;
  label: string;
  notFound: string;
  failed: { publish: string; update: string };
  saved: { publish: MessageKey; update: MessageKey };
}) {
  return async ({ intent, id, form, admin, context }: Post): Promise<Answer> => {
    const editing = id !== null;
    if (editing && !isUuid(id)) notFound(kind.notFound);
    const result = parseForm(kind.schema, form, { listFields: kind.lists, ignore: ["id"] });
    if (!result.ok) return failure(400, { intent, ...result });
    let saved = true;
    const before = editing ? await kind.get(context.db, id) : null;
    try {
      if (editing) saved = Boolean(await kind.update(context.db, admin, id, result.data));
      else await kind.create(context.db, admin, result.data);
    } catch (error) {
      console.error(`No se pudo guardar ${kind.label}:`, error);
      return failure(500, {
        intent,
        fieldErrors: {},
        formError: editing ? kind.failed.update : kind.failed.publish,
        values: result.data as Record<string, unknown>,
      });
    }
    if (!saved) notFound(kind.notFound);
    await releaseAfterChange(context, before);
    return done(context, editing ? kind.saved.update : kind.saved.publish);
  };
}

const saveResource = saver({
  schema: ResourceSchema,
  lists: RESOURCE_LISTS,
  create: createResource,
  update: updateResource,
  get: getResource,
  label: "el recurso",
  notFound: PUBLICATION_MESSAGES.resourceNotFound,
  failed: {
    publish: PUBLICATION_MESSAGES.resourcePublishFailed,
    update: PUBLICATION_MESSAGES.resourceUpdateFailed,
  },
  saved: { publish: "resourcePublished", update: "resourceUpdated" },
});

const saveProject = saver({
  schema: ProjectSchema,
  lists: PROJECT_LISTS,
  create: createProject,
  update: updateProject,
  get: getProject,
  label: "el proyecto",
  notFound: PUBLICATION_MESSAGES.projectNotFound,
  failed: {
    publish: PUBLICATION_MESSAGES.projectPublishFailed,
    update: PUBLICATION_MESSAGES.projectUpdateFailed,
  },
  saved: { publish: "projectPublished", update: "projectUpdated" },
});

/** Deleting a note, a resource or a project after the confirmation dialog. */
function remover(kind: {
  remove: (db: AppLoadContext["db"], admin: User, id: string) => Promise<boolean>;
  get: (db: AppLoadContext["db"], id: string) => Promise<unknown>;
  label: string;
  notFound: string;
  failed: string;
  deleted: MessageKey;
}) {
  return async ({ intent, id, admin, context }: Post): Promise<Answer> => {
    if (!isUuid(id)) notFound(kind.notFound);
    const before = await kind.get(context.db, id);
    let gone: boolean;
    try {
      gone = await kind.remove(context.db, admin, id);
    } catch (error) {
      console.error(`No se pudo eliminar (${kind.label} ${id}):`, error);
      return failure(500, { intent, fieldErrors: {}, formError: kind.failed, values: {} });
    }
    if (!gone) notFound(kind.notFound);
    await releaseAfterChange(context, before);
    return done(context, kind.deleted);
  };
}

const PUBLICATION_ACTIONS: Record<PublicationIntent, (post: Post) => Promise<Answer>> = {
  createNote: publishNote,
  deleteNote: remover({
    remove: deleteNote,
    get: getNote,
    label: "note",
    notFound: PUBLICATION_MESSAGES.noteNotFound,
    failed: PUBLICATION_MESSAGES.noteDeleteFailed,
    deleted: "noteDeleted",
  }),
  saveResource,
  deleteResource: remover({
    remove: deleteResource,
    get: getResource,
    label: "resource",
    notFound: PUBLICATION_MESSAGES.resourceNotFound,
    failed: PUBLICATION_MESSAGES.resourceDeleteFailed,
    deleted: "resourceDeleted",
  }),
  saveProject,
  deleteProject: remover({
    remove: deleteProject,
    get: getProject,
    label: "project",
    notFound: PUBLICATION_MESSAGES.projectNotFound,
    failed: PUBLICATION_MESSAGES.projectDeleteFailed,
    deleted: "projectDeleted",
  }),
};

/** Runs the handler the form's one `intent` names, with the form's one `id` if it has one. */
export async function publicationAction(
  form: FormData,
  admin: User,
  context: AppLoadContext,
): Promise<Answer> {
  const intents = form.getAll("intent");
  const named = intents.length === 1 ? String(intents[0]) : "";
  if (!Object.hasOwn(PUBLICATION_ACTIONS, named)) {
    return failure(400, {
      intent: null,
      fieldErrors: {},
      formError: "Acción no válida.",
      values: {},
    });
  }
  const intent = named as PublicationIntent;
  const ids = form.getAll("id");
  const id = ids.length === 1 && typeof ids[0] === "string" ? ids[0] : null;
  if (ids.length > 1 || (ids.length === 1 && id === null)) {
    return failure(400, {
      intent,
      fieldErrors: {},
      formError: "Este campo tiene un valor no válido.",
      values: {},
    });
  }
  return PUBLICATION_ACTIONS[intent]({ intent, id, form, admin, context });
}
