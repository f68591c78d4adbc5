// /detalles/:eventId/resultados/pantalla — the results on the hall's projector (decision 058):
// one category at a time in large type, turning to the next every 15 seconds, live like the
// results page. Without scripts the refresh itself moves on to the next category.
import { useEffect, useState } from "react";
import { redirect, useSearchParams } from "react-router";
import { CategoryResultsView } from "~/competitions/components/results-view";
import { useLiveResults } from "~/competitions/use-live-results";
import { ErrorPage } from "~/error-page";
import type { WithoutScripts } from "~/site/light-mode";
import type { Route } from "./+types/projector";
import { RefreshWithoutScripts } from "./results";
import { loadResults } from "./results.server";

const TURN_SECONDS = 15;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // `?categoria=` names a category by its id everywhere else (/equipos/nuevo): the projector's
  // position in the turn is `?orden=`, and an address kept from before says where it now is.
  const url = new URL(request.url);
  const old = url.searchParams.get("categoria");
  if (old !== null && !url.searchParams.has("orden")) {
    url.searchParams.delete("categoria");
    url.searchParams.set("orden", old);
    throw redirect(`${url.pathname}${url.search}`, 301);
  }
  return loadResults(params.eventId, context);
}

export const handle: WithoutScripts = { withoutScripts: true };

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData ? `Pantalla: ${loaderData.event.name} — Ayllu` : "Pantalla — Ayllu" },
    { name: "robots", content: "noindex" },
  ];
}

export default function Projector({ loaderData }: Route.ComponentProps) {
  const { event } = loaderData;
  const { results } = useLiveResults(event.id, loaderData.results);
  const [params] = useSearchParams();
  const asked = Number(params.get("orden") ?? "1");
  const first = Number.isInteger(asked) && asked >= 1 && asked <= results.length ? asked - 1 : 0;
  const [shown, setShown] = useState(first);
  useEffect(() => {
    if (results.length < 2) return;
    const timer = setInterval(() => setShown((i) => (i + 1) % results.length), TURN_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [results.length]);
  const current = results[shown % Math.max(1, results.length)];
  const next = (first + 1) % Math.max(1, results.length);
  return (
    <div className="projector">
      <RefreshWithoutScripts
        seconds={TURN_SECONDS}
        url={`/detalles/${event.id}/resultados/pantalla?orden=${next + 1}`}
      />
      <h1 className="projector-title">{event.name}</h1>
      {current ? <CategoryResultsView results={current} large /> : null}
      {results.length > 1 ? (
        <p className="projector-dots" aria-hidden="true">
          {results.map((r, i) => (
            <span
              key={r.category.id}
              className={i === shown ? "projector-dot current" : "projector-dot"}
            />
          ))}
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Volver a los eventos" }} />;
}
