import { data } from "react-router";

/**
 * The one way a loader or action says "not found": a 404 that the nearest error boundary shows
 * with `message` (what was not found, in the specification's words), or as the site's 404 page.
 */
export function notFound(message?: string): never {
  throw data(message ?? null, { status: 404, statusText: "Not Found" });
}
