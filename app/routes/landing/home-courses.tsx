// Home's courses: the current ones (a card that names one of the site's events registers in it) and
// the past ones.
import { Link } from "react-router";
import { DemoNote } from "~/site/components/demo-note";
import { ExternalAction } from "~/site/components/external-action";
import { demoNotes } from "~/site/copy/demo-notes";
import { Reveal } from "~/site/components/reveal";
import { courses } from "~/site/copy/home";
import type { Row } from "~/site/sections";
import { ItemCard } from "~/ui/item-card";

export type CourseCard = Row<"title" | "subtitle" | "dates" | "image" | "href" | "linkLabel"> & {
  /** The site's event the card registers in (decision 048), with its price; null for none. */
  event?: { id: string; price: string } | null;
};

function CourseCards({ items }: { items: CourseCard[] }) {
  return (
    <ul className="item-grid">
      {items.map((item, i) => (
        <ItemCard
          key={i}
          title={item.title}
          heading="h4"
          image={item.image || null}
          imageLabel="Curso"
          meta={[item.dates, item.event?.price].filter(Boolean).join(" · ") || undefined}
          text={item.subtitle || undefined}
        >
          {item.event ? (
            <Link
              to={`/detalles/${item.event.id}`}
              className="button button-secondary button-small"
              aria-label={`${item.linkLabel || "INSCRÍBETE"}: ${item.title}`}
            >
              {item.linkLabel || "INSCRÍBETE"}
            </Link>
          ) : item.href ? (
            <ExternalAction
              href={item.href}
              label={item.linkLabel || item.title}
              className="button button-secondary button-small"
            />
          ) : null}
        </ItemCard>
      ))}
    </ul>
  );
}

export function CoursesSection({
  courseLists,
  demo,
}: {
  courseLists: { current: CourseCard[]; past: CourseCard[] };
  /** Whether the courses are still the demo's (its course event, decision 076). */
  demo: boolean;
}) {
  return (
    <section id="courses" className="home-section" aria-labelledby="courses-title">
      <Reveal>
        <h2 id="courses-title">{courses.title}</h2>
        <p className="section-intro">{courses.intro}</p>
        {demo ? <DemoNote>{demoNotes.courses}</DemoNote> : null}
        {courseLists.current.length > 0 ? (
          <>
            <h3>{courses.currentTitle}</h3>
            <CourseCards items={courseLists.current} />
          </>
        ) : null}
        {courseLists.past.length > 0 ? (
          <>
            <h3>{courses.pastTitle}</h3>
            <CourseCards items={courseLists.past} />
          </>
        ) : null}
      </Reveal>
    </section>
  );
}
