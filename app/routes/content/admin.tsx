// /projectsandnotes — the content admin page (§2, §4): notes, resources and projects, with lists
// that update live when another admin changes them (§7).
import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { AlertDialog, Dialog } from "~/components/dialog";
import { LinkListEditor } from "~/components/link-list-editor";
import { CONTENT_MESSAGES } from "~/lib/content-messages";
import {
  NOTE_LISTS,
  NoteSchema,
  PROJECT_LISTS,
  ProjectSchema,
  RESOURCE_LISTS,
  ResourceSchema,
} from "~/lib/content-schemas";
import { BODY_MAX, SUBTITULOS_MAX, TITULO_MAX } from "~/lib/limits";
import { parseForm, type FieldErrors } from "~/lib/forms";
import type { MessageKey } from "~/lib/messages";
import { isUuid } from "~/lib/checks";
import { formatDateTime } from "~/lib/time";
import { useFocusFirstError } from "~/lib/use-focus-first-error";
import { cookieSettings, requireAdmin } from "#server/auth/guards.server";
import { flashCookie } from "#server/auth/flash.server";
import { listContentForAdmin } from "#server/models/content-lists.server";
import { createNote, deleteNote } from "#server/models/note.server";
import { useLiveLists } from "~/components/content/use-live-lists";
import {
  createProject,
  deleteProject,
  getProject,
  updateProject,
} from "#server/models/project.server";
import {
  createResource,
  deleteResource,
  getResource,
  updateResource,
} from "#server/models/resource.server";
import type { Route } from "./+types/admin";
import { ErrorPage } from "~/components/error-page";
import { Field } from "~/components/field";
import { notFound } from "~/lib/not-found";
import { readForm } from "#server/http/read-form.server";

type Intent =
  "createNote" | "deleteNote" | "saveResource" | "deleteResource" | "saveProject" | "deleteProject";
const INTENTS: readonly Intent[] = [
  "createNote",
  "deleteNote",
  "saveResource",
  "deleteResource",
  "saveProject",
  "deleteProject",
];

interface ActionFailure {
  intent: Intent | null;
  fieldErrors: FieldErrors;
  formError: string | null;
  values: Record<string, unknown>;
}

function failure(status: number, body: ActionFailure) {
  return data(body, { status });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const params = new URL(request.url).searchParams;
  const lists = await listContentForAdmin(context.db, admin);
  const { notes, resources, projects } = lists;
  const wanted = (name: string) => params.get(name);
  const editResourceId = wanted("editarRecurso");
  const editProjectId = wanted("editarProyecto");
  const editingResource = editResourceId ? await getResource(context.db, editResourceId) : null;
  const editingProject = editProjectId ? await getProject(context.db, editProjectId) : null;
  if (editResourceId && !editingResource) notFound(CONTENT_MESSAGES.resourceNotFound);
  if (editProjectId && !editingProject) notFound(CONTENT_MESSAGES.projectNotFound);
  const confirmNote = wanted("eliminarNota");
  const confirmResource = wanted("eliminarRecurso");
  const confirmProject = wanted("eliminarProyecto");
  const body = {
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
  return body;
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  const intentValue = form.get("intent");
  const intent = INTENTS.find((i) => i === intentValue) ?? null;
  if (!intent || form.getAll("intent").length !== 1) {
    return failure(400, {
      intent: null,
      fieldErrors: {},
      formError: "Acción no válida.",
      values: {},
    });
  }
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
  const done = (key: MessageKey) =>
    redirect("/projectsandnotes", {
      headers: { "Set-Cookie": flashCookie(key, cookieSettings(context).secure) },
    });

  if (intent === "deleteNote" || intent === "deleteResource" || intent === "deleteProject") {
    const which = {
      deleteNote: "note",
      deleteResource: "resource",
      deleteProject: "project",
    } as const;
    const kind = which[intent];
    const missing = {
      note: "noteNotFound",
      resource: "resourceNotFound",
      project: "projectNotFound",
    } as const;
    const failed = {
      note: "noteDeleteFailed",
      resource: "resourceDeleteFailed",
      project: "projectDeleteFailed",
    } as const;
    const deleted = {
      note: "noteDeleted",
      resource: "resourceDeleted",
      project: "projectDeleted",
    } as const;
    if (!isUuid(id)) notFound(CONTENT_MESSAGES[missing[kind]]);
    let gone: boolean;
    try {
      const remove = { note: deleteNote, resource: deleteResource, project: deleteProject }[kind];
      gone = Boolean(await remove(context.db, admin, id));
    } catch (error) {
      console.error(`No se pudo eliminar (${kind} ${id}):`, error);
      return failure(500, {
        intent,
        fieldErrors: {},
        formError: CONTENT_MESSAGES[failed[kind]],
        values: {},
      });
    }
    if (!gone) notFound(CONTENT_MESSAGES[missing[kind]]);
    return done(deleted[kind]);
  }

  if (intent === "createNote") {
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
        formError: CONTENT_MESSAGES.noteFailed,
        values: result.data,
      });
    }
    return done("notePublished");
  }

  const editing = id !== null;
  if (editing && !isUuid(id))
    notFound(
      intent === "saveResource"
        ? CONTENT_MESSAGES.resourceNotFound
        : CONTENT_MESSAGES.projectNotFound,
    );

  if (intent === "saveResource") {
    const result = parseForm(ResourceSchema, form, { listFields: RESOURCE_LISTS, ignore: ["id"] });
    if (!result.ok) return failure(400, { intent, ...result });
    let saved = true;
    try {
      if (editing) saved = Boolean(await updateResource(context.db, admin, id, result.data));
      else await createResource(context.db, admin, result.data);
    } catch (error) {
      console.error("No se pudo guardar el recurso:", error);
      const formError = editing
        ? CONTENT_MESSAGES.resourceUpdateFailed
        : CONTENT_MESSAGES.resourcePublishFailed;
      return failure(500, { intent, fieldErrors: {}, formError, values: result.data });
    }
    if (!saved) notFound(CONTENT_MESSAGES.resourceNotFound);
    return done(editing ? "resourceUpdated" : "resourcePublished");
  }

  const result = parseForm(ProjectSchema, form, { listFields: PROJECT_LISTS, ignore: ["id"] });
  if (!result.ok) return failure(400, { intent, ...result });
  let saved = true;
  try {
    if (editing) saved = Boolean(await updateProject(context.db, admin, id, result.data));
    else await createProject(context.db, admin, result.data);
  } catch (error) {
    console.error("No se pudo guardar el proyecto:", error);
    const formError = editing
      ? CONTENT_MESSAGES.projectUpdateFailed
      : CONTENT_MESSAGES.projectPublishFailed;
    return failure(500, { intent, fieldErrors: {}, formError, values: result.data });
  }
  if (!saved) notFound(CONTENT_MESSAGES.projectNotFound);
  return done(editing ? "projectUpdated" : "projectPublished");
}

export function meta() {
  return [
    { title: "Panel de Administración — Notas y Proyectos — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

/** This page's address with some query parameters changed (null removes one). */
function useHref(): (changes: Record<string, string | null>) => string {
  const location = useLocation();
  return (changes) => {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    const search = params.toString();
    return `/projectsandnotes${search ? `?${search}` : ""}`;
  };
}

/** A form's key that changes after each successful save of `intent`, so the form starts empty again. */
function useSaveCount(intent: Intent, actionData: ActionFailure | undefined): number {
  const navigation = useNavigation();
  const [count, setCount] = useState(0);
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state !== "idle" && navigation.formData?.get("intent") === intent)
      submitted.current = true;
    if (navigation.state === "idle" && submitted.current) {
      submitted.current = false;
      if (!actionData || actionData.intent !== intent) setCount((c) => c + 1);
    }
  }, [navigation.state, navigation.formData, actionData, intent]);
  return count;
}

function TextField({
  form,
  name,
  label,
  value,
  errors,
  required,
  max,
  rows,
  type = "text",
}: {
  form: string;
  name: string;
  label: string;
  value: string;
  errors: FieldErrors;
  required?: boolean;
  max?: number;
  rows?: number;
  type?: "text" | "url";
}) {
  return (
    <Field
      id={`${form}-${name}`}
      name={name}
      label={label}
      required={required}
      error={errors[name]}
    >
      {(control) =>
        rows ? (
          <textarea {...control} rows={rows} maxLength={max} defaultValue={value} />
        ) : (
          <input
            {...control}
            type={type}
            inputMode={type === "url" ? "url" : undefined}
            maxLength={max}
            defaultValue={value}
          />
        )
      }
    </Field>
  );
}

const str = (values: Record<string, unknown> | undefined, key: string, fallback = "") =>
  typeof values?.[key] === "string" ? (values[key] as string) : fallback;
const list = (
  values: Record<string, unknown> | undefined,
  key: string,
  fallback: readonly string[] = [],
) => (Array.isArray(values?.[key]) ? (values[key] as string[]) : fallback);

export default function ContentAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const live = useLiveLists(loaderData.lists);
  const { notes, resources, projects } = live.lists;
  const { editingResource, editingProject, showProjects, confirm, timeZone } = loaderData;
  const failed = actionData as ActionFailure | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const href = useHref();

  const noteSaves = useSaveCount("createNote", failed);
  const resourceSaves = useSaveCount("saveResource", failed);
  const projectSaves = useSaveCount("saveProject", failed);
  const forIntent = (intent: Intent) => (failed?.intent === intent ? failed : undefined);
  const noteFailure = forIntent("createNote");
  const resourceFailure = forIntent("saveResource");
  const projectFailure = forIntent("saveProject");
  const noteRef = useFocusFirstError<HTMLFormElement>(noteFailure);
  const resourceRef = useFocusFirstError<HTMLFormElement>(resourceFailure);
  const projectRef = useFocusFirstError<HTMLFormElement>(projectFailure);

  const noteValues = noteFailure?.values;
  const resourceValues =
    resourceFailure?.values ?? (editingResource as Record<string, unknown> | null) ?? undefined;
  const projectValues =
    projectFailure?.values ?? (editingProject as Record<string, unknown> | null) ?? undefined;
  const noteErrors = noteFailure?.fieldErrors ?? {};
  const resourceErrors = resourceFailure?.fieldErrors ?? {};
  const projectErrors = projectFailure?.fieldErrors ?? {};

  const dateOf = (iso: string) => formatDateTime(iso, timeZone);
  const confirmItem =
    confirm?.kind === "note"
      ? {
          title: notes.find((n) => n.id === confirm.id)?.titulo,
          message: CONTENT_MESSAGES.noteDeleteConfirm,
          intent: "deleteNote",
          param: "eliminarNota",
        }
      : confirm?.kind === "resource"
        ? {
            title: resources.find((r) => r.id === confirm.id)?.titulo,
            message: CONTENT_MESSAGES.resourceDeleteConfirm,
            intent: "deleteResource",
            param: "eliminarRecurso",
          }
        : confirm?.kind === "project"
          ? {
              title: projects.find((p) => p.id === confirm.id)?.titulo,
              message: CONTENT_MESSAGES.projectDeleteConfirm,
              intent: "deleteProject",
              param: "eliminarProyecto",
            }
          : null;

  return (
    <div className="page content-admin">
      <h1>Panel de Administración</h1>
      <p className="muted live-status" role="status">
        {live.connected
          ? "Las listas se actualizan en vivo cuando otro administrador publica o elimina contenido."
          : ""}
      </p>

      <section className="card" aria-labelledby="notas-title" id="notas">
        <h2 id="notas-title">Notas</h2>
        <Form
          method="post"
          noValidate
          className="form"
          ref={noteRef}
          key={`note-${noteSaves}`}
          aria-labelledby="notas-form-title"
        >
          <h3 id="notas-form-title">Formulario de Notas</h3>
          <input type="hidden" name="intent" value="createNote" />
          <TextField
            form="nota"
            name="titulo"
            label="Título"
            value={str(noteValues, "titulo")}
            errors={noteErrors}
            required
            max={TITULO_MAX}
          />
          <TextField
            form="nota"
            name="texto"
            label="Texto"
            value={str(noteValues, "texto")}
            errors={noteErrors}
            required
            max={BODY_MAX}
            rows={5}
          />
          <TextField
            form="nota"
            name="enlaceImagen"
            label="Enlace de imagen (opcional)"
            type="url"
            value={str(noteValues, "enlaceImagen")}
            errors={noteErrors}
          />
          <LinkListEditor
            form="nota"
            name="enlacesAdicionales"
            label="Enlace adicional"
            values={list(noteValues, "enlacesAdicionales")}
            error={noteErrors.enlacesAdicionales}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              Publicar Nota
            </button>
          </div>
        </Form>
        <details className="content-list-toggle">
          <summary className="button button-ghost">
            <span className="when-closed">Mostrar Notas</span>
            <span className="when-open">Ocultar Notas</span>
          </summary>
          {notes.length === 0 ? (
            <p>No hay notas publicadas.</p>
          ) : (
            <ul className="content-list" aria-label="Notas publicadas">
              {notes.map((note) => (
                <li key={note.id}>
                  <span>
                    <Link to={`/notas/${note.id}`}>{note.titulo}</Link>
                    <br />
                    <span className="muted">
                      {dateOf(note.createdAt)} · {note.publisherName}
                    </span>
                  </span>
                  <Link
                    to={href({ eliminarNota: note.id })}
                    className="button button-danger button-small"
                    preventScrollReset
                    aria-label={`Eliminar la nota ${note.titulo}`}
                  >
                    Eliminar
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </details>
      </section>

      <section className="card" aria-labelledby="recursos-title" id="recursos">
        <h2 id="recursos-title">Recursos</h2>
        <Form
          method="post"
          noValidate
          className="form"
          ref={resourceRef}
          key={`resource-${editingResource?.id ?? "new"}-${resourceSaves}`}
          aria-labelledby="recursos-form-title"
        >
          <h3 id="recursos-form-title">
            {editingResource ? "Editar Recurso" : "Formulario de Recursos"}
          </h3>
          <input type="hidden" name="intent" value="saveResource" />
          {editingResource ? <input type="hidden" name="id" value={editingResource.id} /> : null}
          <TextField
            form="recurso"
            name="titulo"
            label="Título"
            value={str(resourceValues, "titulo")}
            errors={resourceErrors}
            required
            max={TITULO_MAX}
          />
          <TextField
            form="recurso"
            name="subtitulos"
            label="Subtítulos (opcional)"
            value={str(resourceValues, "subtitulos")}
            errors={resourceErrors}
            max={SUBTITULOS_MAX}
          />
          <TextField
            form="recurso"
            name="texto"
            label="Texto"
            value={str(resourceValues, "texto")}
            errors={resourceErrors}
            required
            max={BODY_MAX}
            rows={5}
          />
          <LinkListEditor
            form="recurso"
            name="enlacesImagenes"
            label="Enlace de imagen"
            values={list(resourceValues, "enlacesImagenes")}
            error={resourceErrors.enlacesImagenes}
          />
          <LinkListEditor
            form="recurso"
            name="enlacesVideos"
            label="Enlace de video de YouTube"
            youtube
            hint="Solo videos de YouTube (youtube.com o youtu.be)."
            values={list(resourceValues, "enlacesVideos")}
            error={resourceErrors.enlacesVideos}
          />
          <LinkListEditor
            form="recurso"
            name="enlacesWeb"
            label="Enlace web"
            values={list(resourceValues, "enlacesWeb")}
            error={resourceErrors.enlacesWeb}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {editingResource ? "Actualizar Recurso" : "Publicar Recurso"}
            </button>
            {editingResource ? (
              <Link
                to={href({ editarRecurso: null })}
                className="button button-ghost"
                preventScrollReset
              >
                Cancelar Edición
              </Link>
            ) : null}
          </div>
        </Form>
        <details className="content-list-toggle">
          <summary className="button button-ghost">
            <span className="when-closed">Mostrar Recursos</span>
            <span className="when-open">Ocultar Recursos</span>
          </summary>
          {resources.length === 0 ? (
            <p>No hay recursos publicados.</p>
          ) : (
            <ul className="content-list" aria-label="Recursos publicados">
              {resources.map((resource) => (
                <li key={resource.id}>
                  <span>
                    <Link to={`/recursos/${resource.id}`}>{resource.titulo}</Link>
                    <br />
                    <span className="muted">
                      {dateOf(resource.createdAt)} · {resource.publisherName}
                    </span>
                  </span>
                  <span className="content-list-actions">
                    <Link
                      to={href({ editarRecurso: resource.id })}
                      className="button button-secondary button-small"
                      preventScrollReset
                      aria-label={`Editar el recurso ${resource.titulo}`}
                    >
                      Editar
                    </Link>
                    <Link
                      to={href({ eliminarRecurso: resource.id })}
                      className="button button-danger button-small"
                      preventScrollReset
                      aria-label={`Eliminar el recurso ${resource.titulo}`}
                    >
                      Eliminar
                    </Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </details>
      </section>

      <section className="card" aria-labelledby="proyectos-title" id="proyectos">
        <h2 id="proyectos-title">Proyectos</h2>
        <Form
          method="post"
          noValidate
          className="form"
          ref={projectRef}
          key={`project-${editingProject?.id ?? "new"}-${projectSaves}`}
          aria-labelledby="proyectos-form-title"
        >
          <h3 id="proyectos-form-title">
            {editingProject ? "Editar Proyecto" : "Formulario de Proyectos"}
          </h3>
          <input type="hidden" name="intent" value="saveProject" />
          {editingProject ? <input type="hidden" name="id" value={editingProject.id} /> : null}
          <TextField
            form="proyecto"
            name="titulo"
            label="Título"
            value={str(projectValues, "titulo")}
            errors={projectErrors}
            required
            max={TITULO_MAX}
          />
          <TextField
            form="proyecto"
            name="descripcion"
            label="Descripción"
            value={str(projectValues, "descripcion")}
            errors={projectErrors}
            required
            max={BODY_MAX}
            rows={5}
          />
          <LinkListEditor
            form="proyecto"
            name="enlacesVideo"
            label="Enlace de video de YouTube"
            youtube
            hint="Solo videos de YouTube (youtube.com o youtu.be)."
            values={list(projectValues, "enlacesVideo")}
            error={projectErrors.enlacesVideo}
          />
          <LinkListEditor
            form="proyecto"
            name="enlacesImagen"
            label="Enlace de imagen"
            values={list(projectValues, "enlacesImagen")}
            error={projectErrors.enlacesImagen}
          />
          <LinkListEditor
            form="proyecto"
            name="enlacesWeb"
            label="Enlace web"
            values={list(projectValues, "enlacesWeb")}
            error={projectErrors.enlacesWeb}
          />
          <LinkListEditor
            form="proyecto"
            name="enlacesDocumentacion"
            label="Enlace de documentación"
            values={list(projectValues, "enlacesDocumentacion")}
            error={projectErrors.enlacesDocumentacion}
          />
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {editingProject ? "Actualizar Proyecto" : "Publicar Proyecto"}
            </button>
            {editingProject ? (
              <Link
                to={href({ editarProyecto: null })}
                className="button button-ghost"
                preventScrollReset
              >
                Cancelar Edición
              </Link>
            ) : null}
            <Link
              to={href({ proyectos: "1" })}
              className="button button-ghost"
              preventScrollReset
              aria-haspopup="dialog"
            >
              Mostrar Proyectos
            </Link>
          </div>
        </Form>
      </section>

      {showProjects ? (
        <Dialog title="Lista de Proyectos" closeTo={href({ proyectos: null })}>
          {projects.length === 0 ? (
            <p>No hay proyectos publicados.</p>
          ) : (
            <ul className="content-list" aria-label="Proyectos publicados">
              {projects.map((project) => (
                <li key={project.id}>
                  <span>
                    <Link to={`/proyectos/${project.id}`}>{project.titulo}</Link>
                    <br />
                    <span className="muted">
                      {dateOf(project.createdAt)} · {project.publisherName}
                    </span>
                  </span>
                  <span className="content-list-actions">
                    <Link
                      to={href({ proyectos: null, editarProyecto: project.id })}
                      className="button button-secondary button-small"
                      preventScrollReset
                      aria-label={`Editar el proyecto ${project.titulo}`}
                    >
                      Editar
                    </Link>
                    <Link
                      to={href({ proyectos: null, eliminarProyecto: project.id })}
                      className="button button-danger button-small"
                      preventScrollReset
                      aria-label={`Eliminar el proyecto ${project.titulo}`}
                    >
                      Eliminar
                    </Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Dialog>
      ) : null}

      {confirm && confirmItem ? (
        <Dialog
          key={`${confirm.kind}-${confirm.id}`}
          title={confirmItem.message}
          closeTo={href({ [confirmItem.param]: null })}
          closeLabel="Cancelar"
          initialFocus="close"
          actions={
            <Form method="post" action="/projectsandnotes" replace>
              <input type="hidden" name="intent" value={confirmItem.intent} />
              <input type="hidden" name="id" value={confirm.id} />
              <button type="submit" className="button button-danger" disabled={busy}>
                Eliminar
              </button>
            </Form>
          }
        >
          <p className="content-text">{confirmItem.title}</p>
        </Dialog>
      ) : null}

      {failed?.formError ? (
        <AlertDialog key={JSON.stringify(failed)} message={failed.formError} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/projectsandnotes", label: "Volver al panel" }} />;
}
