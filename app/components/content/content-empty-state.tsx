import { Link } from "react-router";
import { EmptyState } from "~/components/item-card";
import { useRootData } from "~/root";

/** An empty public list of notes, resources or projects: back home, and for admins, publish. */
export function ContentEmptyState({
  title,
  publishLabel,
}: {
  title: string;
  publishLabel: string;
}) {
  const admin = useRootData()?.user?.isAdmin === true;
  return (
    <EmptyState title={title}>
      <p className="button-row">
        <Link className="button button-secondary" to="/inicio">
          Volver al inicio
        </Link>
        {admin ? (
          <Link className="button" to="/projectsandnotes">
            {publishLabel}
          </Link>
        ) : null}
      </p>
    </EmptyState>
  );
}
