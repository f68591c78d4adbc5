// /recursos — every resource, newest first.
import { ContentEmptyState } from "~/components/content/content-empty-state";
import { ItemCard } from "~/components/item-card";
import { safeImageUrl } from "~/lib/checks";
import { formatDate } from "~/lib/time";
import { listResources } from "#server/models/resource.server";
import type { Route } from "./+types/resources";
import { shareMeta, summaryOf } from "./share-meta";

export async function loader({ context }: Route.LoaderArgs) {
  const resources = await listResources(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    resources: resources.map((r) => ({
      id: r.id,
      titulo: r.titulo,
      subtitulos: r.subtitulos,
      texto: summaryOf(r.texto, 240),
      // The first picture that may be shown.
      imagen: r.enlacesImagenes.find((url) => safeImageUrl(url) !== null) ?? null,
      videos: r.enlacesVideos.length,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Recursos",
    description:
      "Guías, videos y enlaces de la comunidad Ayllu para aprender robótica y tecnología de código abierto.",
    image: null,
    url: `${loaderData?.origin ?? ""}/recursos`,
    type: "website",
  });
}

export default function Resources({ loaderData }: Route.ComponentProps) {
  const { resources, timeZone } = loaderData;
  return (
    <div className="page content-page">
      <h1>Recursos</h1>
      {resources.length === 0 ? (
        <ContentEmptyState title="No hay recursos publicados." publishLabel="Publicar un recurso" />
      ) : (
        <ul className="item-grid">
          {resources.map((resource) => (
            <ItemCard
              key={resource.id}
              to={`/recursos/${resource.id}`}
              title={resource.titulo}
              heading="h2"
              image={resource.imagen}
              imageLabel="Recurso"
              meta={
                <>
                  <time dateTime={resource.createdAt}>
                    {formatDate(resource.createdAt, timeZone)}
                  </time>
                  {resource.videos > 0
                    ? ` · ${resource.videos} ${resource.videos === 1 ? "video" : "videos"}`
                    : null}
                </>
              }
              text={
                resource.subtitulos ? `${resource.subtitulos}\n${resource.texto}` : resource.texto
              }
            />
          ))}
        </ul>
      )}
    </div>
  );
}
