/** The address's names of the panel's search of events and its page ('Eventos Publicados'). */
export const EVENT_SEARCH = "buscarEvento";
export const EVENT_PAGE = "paginaEventos";

/** The panel's (or `base` page's) address with some query parameters changed (its dialogs live in the URL). */
export function panelHref(
  params: URLSearchParams,
  changes: Record<string, string | null>,
  base = "/admin",
): string {
  const next = new URLSearchParams();
  for (const key of ["q", "pagina", EVENT_SEARCH, EVENT_PAGE]) {
    const value = params.get(key);
    if (value) next.set(key, value);
  }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `${base}?${query}` : base;
}
