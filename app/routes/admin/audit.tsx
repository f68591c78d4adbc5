// /admin/auditoria — the audit log (docs/decisions/039-audit-log.md): who did what, under which
// role, to which item and when, newest first; filters by person, kind, item and dates, pages of
// 50, and the same selection as CSV. Admins only; the page works without JavaScript.
import { Form, Link } from "react-router";
import { ErrorPage } from "~/error-page";
import { requireMay } from "~/guards.server";
import { formatDateTime } from "~/kernel/time";
import { Field } from "~/ui/field";
import { loadAudit } from "./audit.server";
import type { Route } from "./+types/audit";
import { BackLink } from "~/ui/back-link";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireMay(request, context, "audit.read");
  return loadAudit(request, admin, context);
}

export function meta() {
  return [{ title: "Registro de auditoría — Ayllu" }, { name: "robots", content: "noindex" }];
}

function query(filters: Record<string, string>, page?: number): string {
  const params = new URLSearchParams();
  const names: Record<string, string> = {
    person: "persona",
    kind: "tipo",
    item: "elemento",
    from: "desde",
    to: "hasta",
  };
  for (const [key, value] of Object.entries(filters)) {
    if (value && names[key]) params.set(names[key], value);
  }
  if (page && page > 1) params.set("pagina", String(page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { filters, kinds, entries, total, page, pageCount, timeZone, error } = loaderData;
  return (
    <div className="page admin-audit">
      <BackLink to="/admin" label="Volver al panel" />
      <h1>Registro de auditoría</h1>
      <section className="card" aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title">Filtrar</h2>
        <Form method="get" className="audit-filters">
          <Field id="audit-person" name="persona" label="Persona">
            {(control) => (
              <input {...control} type="search" maxLength={100} defaultValue={filters.person} />
            )}
          </Field>
          <Field id="audit-kind" name="tipo" label="Tipo de acción">
            {(control) => (
              <select {...control} defaultValue={filters.kind}>
                <option value="">Todas</option>
                {kinds.map((k) => (
                  <option key={k.value} value={k.value}>
                    {k.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id="audit-item"
            name="elemento"
            label="Elemento (id)"
            hint="El id de un evento, un miembro, una nota…"
          >
            {(control) => (
              <input {...control} type="text" maxLength={100} defaultValue={filters.item} />
            )}
          </Field>
          <Field id="audit-from" name="desde" label="Desde">
            {(control) => <input {...control} type="date" defaultValue={filters.from} />}
          </Field>
          <Field id="audit-to" name="hasta" label="Hasta">
            {(control) => <input {...control} type="date" defaultValue={filters.to} />}
          </Field>
          <div className="form-actions">
            <button type="submit" className="button">
              Filtrar
            </button>
            <a
              className="button button-secondary"
              href={`/admin/auditoria.csv${query(filters)}`}
              download
            >
              Descargar CSV
            </a>
          </div>
        </Form>
      </section>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <section aria-labelledby="audit-entries-title">
        <h2 id="audit-entries-title">
          {total === 1 ? "1 entrada" : `${total.toLocaleString("es")} entradas`}
        </h2>
        {entries.length === 0 ? (
          <p className="muted">No hay entradas con estos filtros.</p>
        ) : (
          <ol className="plain-list audit-list">
            {entries.map((e) => (
              <li key={e.id} className="card audit-entry">
                <p className="audit-summary">{e.summary}</p>
                <p className="muted">
                  <time dateTime={e.at}>{formatDateTime(e.at, timeZone)}</time> · {e.actorName} (
                  {e.role}) · <code>{e.action}</code>
                  {e.itemId ? (
                    <>
                      {" "}
                      ·{" "}
                      <Link to={query({ ...filters, item: e.itemId })}>
                        {e.itemKind} {e.itemId.slice(0, 8)}
                      </Link>
                    </>
                  ) : null}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      {pageCount > 1 ? (
        <nav className="pagination" aria-label="Páginas del registro">
          {page > 1 ? <Link to={query(filters, page - 1)}>Anterior</Link> : null}
          <span>{`Página ${page} de ${pageCount}`}</span>
          {page < pageCount ? <Link to={query(filters, page + 1)}>Siguiente</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
