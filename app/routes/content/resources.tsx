// /recursos — every resource, newest first.
import { Link } from "react-router";
import { ContentImage } from "~/components/content/content-text";
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
      imagen: r.enlacesImagenes[0] ?? null,
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
        <p>No hay recursos publicados.</p>
      ) : (
        <ul className="content-cards">
          {resources.map((resource) => (
            <li key={resource.id} className="card content-card">
              <ContentImage src={resource.imagen} alt="" className="content-card-image" />
              <h2>
                <Link to={`/recursos/${resource.id}`}>{resource.titulo}</Link>
              </h2>
              {resource.subtitulos ? (
                <p className="content-subtitle">{resource.subtitulos}</p>
              ) : null}
              <p className="muted">
                <time dateTime={resource.createdAt}>
                  {formatDate(resource.createdAt, timeZone)}
                </time>
                {resource.videos > 0
                  ? ` · ${resource.videos} ${resource.videos === 1 ? "video" : "videos"}`
                  : null}
              </p>
              <p className="content-text">{resource.texto}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
