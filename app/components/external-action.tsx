import { isHttpUrl } from "~/lib/checks";

/** Whether the community has set this outside link (app/content/*: null or "" until it has). */
export function isSetLink(href: string | null | undefined): href is string {
  return typeof href === "string" && isHttpUrl(href);
}

/**
 * A call to action to another site. Until the community sets its address, the same words show
 * as a quiet, unclickable 'Próximamente', never as a link to a platform's front page.
 */
export function ExternalAction({
  href,
  label,
  className = "button",
}: {
  href: string | null | undefined;
  label: string;
  className?: string;
}) {
  if (!isSetLink(href))
    return <span className="button button-pending">{label} · Próximamente</span>;
  return (
    <a className={className} href={href} target="_blank" rel="noopener noreferrer">
      {label}
      <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
    </a>
  );
}
