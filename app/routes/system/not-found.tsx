import { notFound } from "~/kernel/not-found";
import { worksWithoutScripts } from "~/site/light-mode";

// Any path that is not in the route table: a real 404, rendered by the root error boundary.
/** Works without scripts: sent without any in light mode (decision 049). */
export const handle = worksWithoutScripts;

export function loader() {
  notFound();
}

export function meta() {
  return [{ title: "Página no encontrada — Ayllu" }];
}

export default function NotFound() {
  return null;
}
