import { Link } from "react-router";

/** The one way back from a page to its list or panel: above the title, the same on every page. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <p className="back-link">
      <Link to={to}>
        <span aria-hidden="true">←</span>
        {label}
      </Link>
    </p>
  );
}
