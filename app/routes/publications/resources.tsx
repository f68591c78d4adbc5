// /recursos — every resource, newest first.
import { PublicationsEmptyState } from "~/publications/components/empty-state";
import { useRootData } from "~/root";
import { may } from "~/kernel/permissions";
import { ResourceCard } from "~/publications/components/publication-cards";
import { resourceSummary } from "~/publications/summaries";
import { listResources } from "~/publications/resource.server";
import type { Route } from "./+types/resources";
import { shareMeta } from "./share-meta";
import { worksWithoutScripts } from "~/site/light-mode";

/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export async function loader({ context }: Route.LoaderArgs) {
  const resources = await listResources(context.db);
  return {
    origin: context.config.publicUrl.origin,
    timeZone: context.config.siteTimezone,
    resources: resources.map(resourceSummary),
  };
}

export function meta({ loaderData }: Route.MetaArgs) {
  return shareMeta({
    title: "Recursos",
    description:
      "Guías, videos y enlaces de la comunidad Ayllu para aprender robótica y tecnología de código abierto.",
    url: `${loaderData?.origin ?? ""}/recursos`,
    type: "website",
  });
}

export default function Resources({ loaderData }: Route.ComponentProps) {
  const canPublish = may(useRootData()?.user, "publications.manage");
  const { resources, timeZone } = loaderData;
  return (
    <div className="page publication-page">
      <h1>Recursos</h1>
      {resources.length === 0 ? (
        <PublicationsEmptyState
          canPublish={canPublish}
          title="No hay recursos publicados."
          publishLabel="Publicar un recurso"
        />
      ) : (
        <ul className="item-grid">
          {resources.map((resource) => (
            <ResourceCard key={resource.id} resource={resource} timeZone={timeZone} heading="h2" />
          ))}
        </ul>
      )}
    </div>
  );
}
