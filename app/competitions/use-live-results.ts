// The results as they change (decision 058): the page's results, replaced category by
// category with what the live stream sends. Without scripts (light mode, or none at all) the page
// refreshes every 30 seconds instead; if the stream is refused (too many screens) or drops, the
// browser's EventSource retries and the page's data stays as it was.
import { useEffect, useState } from "react";
import type { CategoryResults } from "~/competitions/judging/results.server";

export function resultsStreamPath(eventId: string): string {
  return `/detalles/${eventId}/resultados/en-vivo`;
}

export function useLiveResults(eventId: string, initial: CategoryResults[]) {
  const [results, setResults] = useState(initial);
  const [changed, setChanged] = useState<{ name: string; at: number } | null>(null);
  useEffect(() => setResults(initial), [initial]);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(resultsStreamPath(eventId));
    source.addEventListener("results", (message) => {
      let next: CategoryResults;
      try {
        next = JSON.parse((message as MessageEvent<string>).data) as CategoryResults;
      } catch {
        return;
      }
      setResults((now) => now.map((r) => (r.category.id === next.category.id ? next : r)));
      setChanged({ name: next.category.name, at: Date.now() });
    });
    return () => source.close();
  }, [eventId]);
  return { results, changed };
}
