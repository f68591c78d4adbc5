// /projectsandnotes — the publications admin page (§2, §4): notes, resources and projects, with lists
// that update live when another admin changes them (§7). What it shows and what its forms do live
// in admin.server.ts; its forms and lists in components/content/admin/.
import { AdminPublicationList, ListToggle } from "~/publications/components/admin-list";
import {
  NoteForm,
  ProjectForm,
  ResourceForm,
  usePublicationForm,
  type PublicationActionFailure,
} from "~/publications/components/publication-forms";
import { DeletePublicationDialog } from "~/publications/components/delete-dialog";
import { useAdminHref } from "~/publications/components/use-admin-href";
import { useLiveLists } from "~/publications/components/use-live-lists";
import { AlertDialog, Dialog } from "~/ui/dialog";
import { ErrorPage } from "~/error-page";
import { requireMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { publicationAction, loadPublicationsAdmin } from "./admin.server";
import type { Route } from "./+types/admin";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireMay(request, context, "publications.manage");
  return loadPublicationsAdmin(request, admin, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireMay(request, context, "publications.manage");
  return publicationAction(await readForm(request), admin, context);
}

export function meta() {
  return [
    { title: "Panel de Administración — Notas y Proyectos — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

export default function PublicationsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const live = useLiveLists(loaderData.lists);
  const { notes, resources, projects } = live.lists;
  const { editingResource, editingProject, showProjects, confirm, timeZone } = loaderData;
  const failed = actionData as PublicationActionFailure | undefined;
  const href = useAdminHref();
  const note = usePublicationForm("createNote", failed);
  const resource = usePublicationForm("saveResource", failed, editingResource ?? undefined);
  const project = usePublicationForm("saveProject", failed, editingProject ?? undefined);
  const confirmTitle =
    confirm &&
    { note: notes, resource: resources, project: projects }[confirm.kind].find(
      (item) => item.id === confirm.id,
    )?.titulo;

  return (
    <div className="page publication-admin">
      <h1>Panel de Administración</h1>
      <p className="muted live-status" role="status">
        {live.connected
          ? "Las listas se actualizan en vivo cuando otro administrador publica o elimina contenido."
          : ""}
      </p>

      <section className="card" aria-labelledby="notas-title" id="notas">
        <h2 id="notas-title">Notas</h2>
        <NoteForm state={note} />
        <ListToggle name="Notas">
          <AdminPublicationList
            items={notes}
            label="Notas publicadas"
            empty="No hay notas publicadas."
            path="/notas"
            noun="la nota"
            timeZone={timeZone}
            deleteTo={(id) => href({ eliminarNota: id })}
          />
        </ListToggle>
      </section>

      <section className="card" aria-labelledby="recursos-title" id="recursos">
        <h2 id="recursos-title">Recursos</h2>
        <ResourceForm
          state={resource}
          editingId={editingResource?.id ?? null}
          cancelTo={href({ editarRecurso: null })}
        />
        <ListToggle name="Recursos">
          <AdminPublicationList
            items={resources}
            label="Recursos publicados"
            empty="No hay recursos publicados."
            path="/recursos"
            noun="el recurso"
            timeZone={timeZone}
            editTo={(id) => href({ editarRecurso: id })}
            deleteTo={(id) => href({ eliminarRecurso: id })}
          />
        </ListToggle>
      </section>

      <section className="card" aria-labelledby="proyectos-title" id="proyectos">
        <h2 id="proyectos-title">Proyectos</h2>
        <ProjectForm
          state={project}
          editingId={editingProject?.id ?? null}
          cancelTo={href({ editarProyecto: null })}
          listTo={href({ proyectos: "1" })}
        />
      </section>

      {showProjects ? (
        <Dialog title="Lista de Proyectos" closeTo={href({ proyectos: null })}>
          <AdminPublicationList
            items={projects}
            label="Proyectos publicados"
            empty="No hay proyectos publicados."
            path="/proyectos"
            noun="el proyecto"
            timeZone={timeZone}
            editTo={(id) => href({ proyectos: null, editarProyecto: id })}
            deleteTo={(id) => href({ proyectos: null, eliminarProyecto: id })}
          />
        </Dialog>
      ) : null}

      {confirm ? (
        <DeletePublicationDialog
          kind={confirm.kind}
          id={confirm.id}
          title={confirmTitle ?? undefined}
          closeTo={(param) => href({ [param]: null })}
        />
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
