import { Link } from "react-router";
import { EmptyState } from "~/ui/item-card";

/** An empty public list of notes, resources or projects: back home, and for those who may, publish. */
export function PublicationsEmptyState({
  title,
  publishLabel,
  canPublish,
}: {
  title: string;
  publishLabel: string;
  canPublish: boolean;
}) {
  return (
    <EmptyState title={title}>
      <p className="button-row">
        <Link className="button button-secondary" to="/inicio">
          Volver al inicio
        </Link>
        {canPublish ? (
          <Link className="button" to="/projectsandnotes">
            {publishLabel}
          </Link>
        ) : null}
      </p>
    </EmptyState>
  );
}
