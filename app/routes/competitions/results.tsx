// /detalles/:eventId/resultados — a competition's results, live (decision 058): every
// category's ranking, updated within a second of a judge's entry through the public stream; in
// light mode and without JavaScript a plain refresh every 30 seconds. Visitors' copies come from
// the page cache.
import { Link } from "react-router";
import { CategoryResultsView } from "~/competitions/components/results-view";
import { useLiveResults } from "~/competitions/use-live-results";
import { ErrorPage } from "~/error-page";
import type { WithoutScripts } from "~/site/light-mode";
import { BackLink } from "~/ui/back-link";
import { useLightMode } from "~/ui/light";
import type { Route } from "./+types/results";
import { loadResults } from "./results.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  return loadResults(params.eventId, context);
}

export const handle: WithoutScripts = { withoutScripts: true };

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Resultados — Ayllu" }, { name: "robots", content: "noindex" }];
  return [
    { title: `Resultados: ${loaderData.event.name} — Ayllu` },
    {
      name: "description",
      content: `Resultados en vivo de ${loaderData.event.name}, categoría por categoría.`,
    },
  ];
}

/** Without scripts the page asks again every 30 seconds; with them the stream updates it. */
export function RefreshWithoutScripts({ seconds, url }: { seconds: number; url?: string }) {
  const light = useLightMode();
  const content = url ? `${seconds};url=${url}` : String(seconds);
  return light ? (
    <meta httpEquiv="refresh" content={content} />
  ) : (
    <noscript>
      <meta httpEquiv="refresh" content={content} />
    </noscript>
  );
}

export default function Results({ loaderData }: Route.ComponentProps) {
  const { event } = loaderData;
  const { results, changed } = useLiveResults(event.id, loaderData.results);
  const light = useLightMode();
  return (
    <div className="page results-page">
      <RefreshWithoutScripts seconds={30} />
      <BackLink to={`/detalles/${event.id}`} label={`Volver a ${event.name}`} />
      <h1>Resultados: {event.name}</h1>
      <p className="lead">
        {light
          ? "La página se actualiza cada 30 segundos."
          : "Se actualizan solos en cuanto el jurado registra un resultado."}{" "}
        <Link to={`/detalles/${event.id}/resultados/pantalla`}>Ver en pantalla completa</Link>
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {changed ? `Resultados actualizados: ${changed.name}.` : ""}
      </p>
      {results.length > 1 ? (
        <nav aria-label="Categorías">
          <ul className="category-index">
            {results.map((r) => (
              <li key={r.category.id}>
                <a href={`#resultados-${r.category.id}`}>{r.category.name}</a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <div className="results-list">
        {results.map((r) => (
          <div key={r.category.id} className="card">
            <CategoryResultsView results={r} />
          </div>
        ))}
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
