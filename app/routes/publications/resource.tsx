// /recursos/:id — one resource, its videos (privacy-mode YouTube, loaded on demand), images and links.
import {
  PublicationImage,
  PublicationText,
  LinkList,
} from "~/publications/components/publication-text";
import { YouTubeEmbed } from "~/publications/components/youtube-embed";
import { formatDateTime } from "~/kernel/time";
import { getResource } from "~/publications/resource.server";
import { notFound } from "~/kernel/not-found";
import type { Route } from "./+types/resource";
import { summaryOf } from "~/publications/summaries";
import { shareMeta } from "./share-meta";
import { cardPath, type LinkCardHandle } from "~/site/link-preview";
import { BackLink } from "~/ui/back-link";
import { Share } from "~/ui/share";
import type { WithoutScripts } from "~/site/light-mode";

export async function loader({ params, context }: Route.LoaderArgs) {
  const resource = await getResource(context.db, params.id);
  if (!resource) notFound();
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    resource: {
      id: resource.id,
      titulo: resource.titulo,
      subtitulos: resource.subtitulos,
      texto: resource.texto,
      enlacesImagenes: resource.enlacesImagenes,
      enlacesVideos: resource.enlacesVideos,
      enlacesWeb: resource.enlacesWeb,
      createdAt: resource.createdAt.toISOString(),
      publisherName: resource.publisherName,
    },
  };
}

/** The link preview's card (decision 046). */
export const handle: LinkCardHandle<Awaited<ReturnType<typeof loader>>> & WithoutScripts = {
  withoutScripts: true,
  linkCard: (data) => (data ? cardPath("recurso", data.resource.id) : null),
};

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Página no encontrada — Ayllu" }];
  const { resource, origin } = loaderData;
  return shareMeta({
    title: resource.titulo,
    description: summaryOf(
      resource.subtitulos ? `${resource.subtitulos}. ${resource.texto}` : resource.texto,
    ),
    url: `${origin}/recursos/${resource.id}`,
  });
}

export default function ResourcePage({ loaderData }: Route.ComponentProps) {
  const { resource, timeZone, origin } = loaderData;
  return (
    <article className="page page-narrow publication-page">
      <BackLink to="/recursos" label="Todos los recursos" />
      <h1>{resource.titulo}</h1>
      {resource.subtitulos ? <p className="publication-subtitle">{resource.subtitulos}</p> : null}
      <p className="muted">
        <time dateTime={resource.createdAt}>{formatDateTime(resource.createdAt, timeZone)}</time> ·{" "}
        {resource.publisherName}
      </p>
      <Share title={resource.titulo} url={`${origin}/recursos/${resource.id}`} />
      <PublicationText text={resource.texto} />
      {resource.enlacesVideos.length > 0 ? (
        <section className="publication-videos">
          <h2>Videos</h2>
          {resource.enlacesVideos.map((url, index) => (
            <YouTubeEmbed
              key={`${index}-${url}`}
              url={url}
              title={`${resource.titulo} (${index + 1})`}
            />
          ))}
        </section>
      ) : null}
      {resource.enlacesImagenes.length > 0 ? (
        <section className="publication-gallery">
          <h2>Imágenes</h2>
          {resource.enlacesImagenes.map((src, index) => (
            <PublicationImage
              key={`${index}-${src}`}
              src={src}
              alt={`${resource.titulo}, imagen ${index + 1}`}
            />
          ))}
        </section>
      ) : null}
      <LinkList title="Enlaces" links={resource.enlacesWeb} />
    </article>
  );
}
