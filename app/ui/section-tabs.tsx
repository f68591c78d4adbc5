import { useEffect, useRef } from "react";
import { Link } from "react-router";

export type SectionTab = {
  key: string;
  to: string;
  label: string;
  /** Opened as a whole page load (a page that installs its own worker, say). */
  document?: boolean;
};

/**
 * A page's sections as links, each its own address (so they work without scripts and can be
 * shared): pills in a row that scrolls sideways on a phone, a list down the side where the page
 * lays it out so. The open one is marked `aria-current` and brought into view in the row, without
 * moving the page up or down. A group's heading shows where the list runs down the side; in the
 * phone's row the groups follow each other, a gap between them.
 */
export function SectionTabs({
  label,
  current,
  groups,
  className,
}: {
  label: string;
  current: string;
  groups: { heading?: string; tabs: SectionTab[] }[];
  className?: string;
}) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const bring = () => {
      const row = nav.current;
      const open = row?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!row || !open || row.scrollWidth <= row.clientWidth) return;
      const offset = open.getBoundingClientRect().left - row.getBoundingClientRect().left;
      row.scrollLeft += offset - (row.clientWidth - open.offsetWidth) / 2;
    };
    bring();
    // A phone turned sideways, or a window made narrow, makes it a row again.
    window.addEventListener("resize", bring);
    return () => window.removeEventListener("resize", bring);
  }, [current]);
  return (
    <nav
      ref={nav}
      className={["section-tabs", className].filter(Boolean).join(" ")}
      aria-label={label}
    >
      {groups.map((group, index) => (
        <div key={group.heading ?? index} className="section-tabs-group">
          {group.heading ? <p className="section-tabs-heading">{group.heading}</p> : null}
          <ul>
            {group.tabs.map((tab) => (
              <li key={tab.key}>
                <Link
                  to={tab.to}
                  reloadDocument={tab.document}
                  preventScrollReset
                  aria-current={tab.key === current ? "page" : undefined}
                >
                  {tab.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
