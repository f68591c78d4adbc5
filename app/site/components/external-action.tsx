import type { ReactNode } from "react";
import { Link } from "react-router";
import { isHttpUrl } from "~/kernel/checks";
import { isSitePath } from "~/site/sections";

/** Whether ExternalAction shows anything for this address. */
export function isActionHref(href: string | null | undefined): href is string {
  return Boolean(href && (isSitePath(href) || isHttpUrl(href)));
}

/**
 * A link the landing sections give (/admin/sitio): a page of this site (a client-side link) or
 * another site's (a new tab, said to screen readers). A link the community has not set, or one
 * that is neither, is not shown at all: no button to nowhere, no link to a platform's front page.
 */
export function ExternalAction({
  href,
  label,
  className = "button",
}: {
  href: string | null | undefined;
  label: ReactNode;
  /** The button's look; null for a plain text link. */
  className?: string | null;
}) {
  if (href && isSitePath(href))
    return (
      <Link className={className ?? undefined} to={href}>
        {label}
      </Link>
    );
  if (!href || !isHttpUrl(href)) return null;
  return (
    <a className={className ?? undefined} href={href} target="_blank" rel="noopener noreferrer">
      {label}
      <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
    </a>
  );
}
