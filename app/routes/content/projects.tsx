// /proyectos — every project, newest first.
import { ContentEmptyState } from "~/components/content/content-empty-state";
import { ItemCard } from "~/components/item-card";
import { safeImageUrl } from "~/lib/checks";
import { formatDate } from "~/lib/time";
import { listProjects } from "#server/models/project.server";
import type { Route } from "./+types/projects";
import { shareMeta, summaryOf } from "./share-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const projects = await listProjects(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    projects: projects.map((p) => ({
      id: p.id,
      titulo: p.titulo,
      descripcion: summaryOf(p.descripcion, 240),
      // The first picture that may be shown.
      imagen: p.enlacesImagen.find((url) => safeImageUrl(url) !== null) ?? null,
      createdAt: p.createdAt.toISOString(),
    })),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Proyectos",
    description: "Proyectos de robótica y tecnología de código abierto de la comunidad Ayllu.",
    image: null,
    url: `${loaderData?.origin ?? ""}/proyectos`,
    type: "website",
  });
}

export default function Projects({ loaderData }: Route.ComponentProps) {
  const { projects, timeZone } = loaderData;
  return (
    <div className="page content-page">
      <h1>Proyectos</h1>
      {projects.length === 0 ? (
        <ContentEmptyState
          title="No hay proyectos publicados."
          publishLabel="Publicar un proyecto"
        />
      ) : (
        <ul className="item-grid">
          {projects.map((project) => (
            <ItemCard
              key={project.id}
              to={`/proyectos/${project.id}`}
              title={project.titulo}
              heading="h2"
              image={project.imagen}
              imageLabel="Proyecto"
              meta={
                <>
                  <time dateTime={project.createdAt}>
                    {formatDate(project.createdAt, timeZone)}
                  </time>
                </>
              }
              text={project.descripcion}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
