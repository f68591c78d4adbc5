import { notFound } from "~/kernel/not-found";

// Any path that is not in the route table: a real 404, rendered by the root error boundary.
export function loader() {
  notFound();
}

export function meta() {
  return [{ title: "Página no encontrada — Ayllu" }];
}

export default function NotFound() {
  return null;
}
