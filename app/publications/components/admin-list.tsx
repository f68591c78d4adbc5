import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDateTime } from "~/kernel/time";

interface PublicationListItem {
  id: string;
  titulo: string;
  publisherName: string;
  createdAt: string;
}

/**
 * One list of the publications admin (notes, resources or projects): each item links to its public
 * page, says when and by whom it was published, and offers 'Editar' (when it can be edited) and
 * 'Eliminar', both links that open the form or the confirmation.
 */
export function AdminPublicationList({
  items,
  label,
  empty,
  path,
  noun,
  timeZone,
  editTo,
  deleteTo,
}: {
  items: readonly PublicationListItem[];
  /** The list's accessible name ('Notas publicadas'). */
  label: string;
  empty: string;
  /** Where an item's public page lives ('/notas'). */
  path: string;
  /** The item as the buttons name it ('la nota'). */
  noun: string;
  timeZone: string;
  editTo?: (id: string) => string;
  deleteTo: (id: string) => string;
}) {
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <ul className="publication-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.id}>
          <span>
            <Link className="inline-action" to={`${path}/${item.id}`}>
              {item.titulo}
            </Link>
            <br />
            <span className="muted">
              {formatDateTime(item.createdAt, timeZone)} · {item.publisherName}
            </span>
          </span>
          <span className="publication-list-actions">
            {editTo ? (
              <Link
                to={editTo(item.id)}
                className="button button-secondary button-small"
                preventScrollReset
                aria-label={`Editar ${noun} ${item.titulo}`}
              >
                Editar
              </Link>
            ) : null}
            <Link
              to={deleteTo(item.id)}
              className="button button-danger button-small"
              preventScrollReset
              aria-label={`Eliminar ${noun} ${item.titulo}`}
            >
              Eliminar
            </Link>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A published list that opens under its form, without script too ('Mostrar …' / 'Ocultar …'). */
export function ListToggle({ name, children }: { name: string; children: ReactNode }) {
  return (
    <details className="publication-list-toggle">
      <summary className="button button-ghost">
        <span className="when-closed">{`Mostrar ${name}`}</span>
        <span className="when-open">{`Ocultar ${name}`}</span>
      </summary>
      {children}
    </details>
  );
}
