// /proyectos — every project, newest first.
import { PublicationsEmptyState } from "~/publications/components/empty-state";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { ProjectCard } from "~/publications/components/publication-cards";
import { projectSummary } from "~/publications/summaries";
import { listProjects } from "~/publications/project.server";
import type { Route } from "./+types/projects";
import { shareMeta } from "./share-meta";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const projects = await listProjects(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    projects: projects.map(projectSummary),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Proyectos",
    description: "Proyectos de robótica y tecnología de código abierto de la comunidad Ayllu.",
    url: `${loaderData?.origin ?? ""}/proyectos`,
    type: "website",
  });
}

export default function Projects({ loaderData }: Route.ComponentProps) {
  const canPublish = may(useRootData()?.user, "publications.manage");
  const { projects, timeZone } = loaderData;
  return (
    <div className="page publication-page">
      <h1>Proyectos</h1>
      {projects.length === 0 ? (
        <PublicationsEmptyState
          canPublish={canPublish}
          title="No hay proyectos publicados."
          publishLabel="Publicar un proyecto"
        />
      ) : (
        <ul className="item-grid">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} timeZone={timeZone} heading="h2" />
          ))}
        </ul>
      )}
    </div>
  );
}
