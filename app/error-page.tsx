import type { ReactNode } from "react";
import { isRouteErrorResponse, Link } from "react-router";
import { MESSAGES } from "~/messages";

const SERVER_ERROR =
  "Ocurrió un error en el servidor. Por favor, inténtalo de nuevo en unos momentos.";

interface Page {
  code: number;
  title: string;
  text: string | null;
  /** Whether the route's own way back is offered (not to someone refused the whole area). */
  back: boolean;
}

function pageFor(error: unknown, failure?: { title: string; text: string }): Page {
  if (isRouteErrorResponse(error)) {
    const said = typeof error.data === "string" && error.data ? error.data : null;
    if (error.status === 404) {
      return said
        ? { code: 404, title: said, text: null, back: true }
        : {
            code: 404,
            title: "Página no encontrada",
            text: "La página que buscas no existe o fue movida.",
            back: true,
          };
    }
    if (error.status === 403)
      return {
        code: 403,
        title: "Acceso denegado",
        text: said ?? MESSAGES.accessDenied,
        back: false,
      };
    if (error.status >= 400 && error.status < 500)
      return {
        code: error.status,
        title: "Solicitud no válida",
        text: said ?? "Revisa la dirección o el formulario y vuelve a intentarlo.",
        back: true,
      };
  }
  return {
    code: 500,
    title: failure?.title ?? "Algo salió mal",
    text: failure?.text ?? SERVER_ERROR,
    back: true,
  };
}

/**
 * The one error page, for the root and every route's error boundary. A 404 says what was not
 * found, a 403 why, another 4xx that the request was not valid; anything else is a server error,
 * logged, whose details are shown only in development. `back` is the route's own way back
 * ('Volver al panel'); 'Volver al inicio' is always there.
 */
export function ErrorPage({
  error,
  back,
  failure,
  children,
}: {
  error: unknown;
  back?: { to: string; label: string };
  /** What an unexpected failure of this route is called, where the specification names it. */
  failure?: { title: string; text: string };
  children?: ReactNode;
}) {
  // Refusals and unknown pages are answers, not failures: only the rest is logged.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  const page = pageFor(error, failure);
  const way = page.back ? back : undefined;
  return (
    <section className="page page-narrow error-page" aria-labelledby="error-title">
      <p className="error-code" aria-hidden="true">
        {page.code}
      </p>
      <h1 id="error-title">{page.title}</h1>
      {page.text ? <p>{page.text}</p> : null}
      <p className="button-row">
        {way ? (
          <Link className="button" to={way.to}>
            {way.label}
          </Link>
        ) : null}
        <Link className={way ? "button button-secondary" : "button"} to="/inicio">
          Volver al inicio
        </Link>
      </p>
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="error-detail">{error.stack}</pre>
      ) : null}
      {children}
    </section>
  );
}
