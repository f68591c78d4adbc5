import { Form, Link, useLocation } from "react-router";
import { EVENT_PAGE, EVENT_SEARCH, panelHref } from "~/kernel/panel-href";
import { SEARCH_MAX } from "~/kernel/search";
import { EmailAddress } from "~/ui/email-address";

interface UserRow {
  id: string;
  nombreCompleto: string | null;
  displayName: string | null;
  email: string | null;
  isAdmin: boolean;
}

/** The panel's 'Usuarios': search, the page of users, and the pages. */
export function UsersSection({
  users,
  usersPage,
  params,
}: {
  users: readonly UserRow[];
  usersPage: { total: number; page: number; pageCount: number; q: string };
  params: URLSearchParams;
}) {
  const { key: arrival } = useLocation();
  return (
    <section className="card" aria-labelledby="users-title">
      <h2 id="users-title">Usuarios</h2>
      <Form method="get" className="search-form" role="search" aria-label="Buscar usuarios">
        <label htmlFor="user-search">Buscar por nombre o correo</label>
        {/* The events' list keeps its search and page. */}
        {[EVENT_SEARCH, EVENT_PAGE].map((key) =>
          params.get(key) ? (
            <input key={key} type="hidden" name={key} value={params.get(key) ?? ""} />
          ) : null,
        )}
        <div className="search-row">
          <input
            // The box says what the list below was searched for, after every arrival: a search
            // typed and left without 'Buscar' never sits over a list it did not filter.
            key={arrival}
            id="user-search"
            type="search"
            name="q"
            defaultValue={usersPage.q}
            maxLength={SEARCH_MAX}
          />
          <button type="submit" className="button button-secondary button-small">
            Buscar
          </button>
        </div>
      </Form>
      {users.length === 0 ? (
        <p>
          {usersPage.q
            ? "Ningún usuario coincide con la búsqueda."
            : "No hay usuarios registrados."}
        </p>
      ) : (
        <>
          <p className="muted">{`${usersPage.total} ${usersPage.total === 1 ? "usuario" : "usuarios"}`}</p>
          <ul className="user-list">
            {users.map((u) => (
              <li key={u.id}>
                <Link
                  to={panelHref(params, { usuario: u.id })}
                  preventScrollReset
                  className="user-row"
                >
                  <span>
                    <strong>{u.nombreCompleto || u.displayName || "Usuario"}</strong>
                    <span className="muted user-email">
                      {u.email ? <EmailAddress email={u.email} /> : null}
                    </span>
                  </span>
                  {u.isAdmin ? <span className="admin-badge">ADMIN</span> : null}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {usersPage.pageCount > 1 ? (
        <nav className="pagination" aria-label="Páginas de usuarios">
          {usersPage.page > 1 ? (
            <Link to={panelHref(params, { pagina: String(usersPage.page - 1) })}>Anterior</Link>
          ) : null}
          <span>{`Página ${usersPage.page} de ${usersPage.pageCount}`}</span>
          {usersPage.page < usersPage.pageCount ? (
            <Link to={panelHref(params, { pagina: String(usersPage.page + 1) })}>Siguiente</Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
