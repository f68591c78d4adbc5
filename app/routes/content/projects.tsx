// /proyectos — every project, newest first.
import { Link } from "react-router";
import { ContentImage } from "~/components/content/content-text";
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
      imagen: p.enlacesImagen[0] ?? null,
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
        <p>No hay proyectos publicados.</p>
      ) : (
        <ul className="content-cards">
          {projects.map((project) => (
            <li key={project.id} className="card content-card">
              <ContentImage src={project.imagen} alt="" className="content-card-image" />
              <h2>
                <Link to={`/proyectos/${project.id}`}>{project.titulo}</Link>
              </h2>
              <p className="muted">
                <time dateTime={project.createdAt}>{formatDate(project.createdAt, timeZone)}</time>
              </p>
              <p className="content-text">{project.descripcion}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
