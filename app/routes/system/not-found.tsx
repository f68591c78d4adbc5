import { data } from "react-router";

// Any path that is not in the route table: a real 404, rendered by the root error boundary.
export function loader() {
  throw data(null, { status: 404, statusText: "Not Found" });
}

export function meta() {
  return [{ title: "Página no encontrada — Ayllu" }];
}

export default function NotFound() {
  return null;
}
