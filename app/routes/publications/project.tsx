// /proyectos/:id — one project, its videos, images, web and documentation links.
import {
  PublicationImage,
  PublicationText,
  LinkList,
} from "~/publications/components/publication-text";
import { YouTubeEmbed } from "~/publications/components/youtube-embed";
import { formatDateTime } from "~/kernel/time";
import { getProject } from "~/publications/project.server";
import { notFound } from "~/kernel/not-found";
import type { Route } from "./+types/project";
import { summaryOf } from "~/publications/summaries";
import { shareMeta } from "./share-meta";
import { cardPath, type LinkCardHandle } from "~/site/link-preview";
import { BackLink } from "~/ui/back-link";
import { Share } from "~/ui/share";
import type { WithoutScripts } from "~/site/light-mode";

export async function loader({ params, context }: Route.LoaderArgs) {
  const project = await getProject(context.db, params.id);
  if (!project) notFound();
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    project: {
      id: project.id,
      titulo: project.titulo,
      descripcion: project.descripcion,
      enlacesVideo: project.enlacesVideo,
      enlacesImagen: project.enlacesImagen,
      enlacesWeb: project.enlacesWeb,
      enlacesDocumentacion: project.enlacesDocumentacion,
      createdAt: project.createdAt.toISOString(),
      publisherName: project.publisherName,
    },
  };
}

/** The link preview's card (decision 046). */
export const handle: LinkCardHandle<Awaited<ReturnType<typeof loader>>> & WithoutScripts = {
  withoutScripts: true,
  linkCard: (data) => (data ? cardPath("proyecto", data.project.id) : null),
};

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Página no encontrada — Ayllu" }];
  const { project, origin } = loaderData;
  return shareMeta({
    title: project.titulo,
    description: summaryOf(project.descripcion),
    url: `${origin}/proyectos/${project.id}`,
  });
}

export default function ProjectPage({ loaderData }: Route.ComponentProps) {
  const { project, timeZone, origin } = loaderData;
  return (
    <article className="page page-narrow publication-page">
      <BackLink to="/proyectos" label="Todos los proyectos" />
      <h1>{project.titulo}</h1>
      <p className="muted">
        <time dateTime={project.createdAt}>{formatDateTime(project.createdAt, timeZone)}</time> ·{" "}
        {project.publisherName}
      </p>
      <Share title={project.titulo} url={`${origin}/proyectos/${project.id}`} />
      <PublicationText text={project.descripcion} />
      {project.enlacesVideo.length > 0 ? (
        <section className="publication-videos">
          <h2>Videos</h2>
          {project.enlacesVideo.map((url, index) => (
            <YouTubeEmbed
              key={`${index}-${url}`}
              url={url}
              title={`${project.titulo} (${index + 1})`}
            />
          ))}
        </section>
      ) : null}
      {project.enlacesImagen.length > 0 ? (
        <section className="publication-gallery">
          <h2>Imágenes</h2>
          {project.enlacesImagen.map((src, index) => (
            <PublicationImage
              key={`${index}-${src}`}
              src={src}
              alt={`${project.titulo}, imagen ${index + 1}`}
            />
          ))}
        </section>
      ) : null}
      <LinkList title="Enlaces web" links={project.enlacesWeb} />
      <LinkList title="Documentación" links={project.enlacesDocumentacion} />
    </article>
  );
}
