// Home's articles: the history of technology, the community's talks and the latest notes.
import { Link } from "react-router";
import { NoteCard } from "~/publications/components/publication-cards";
import { Accordion } from "~/site/components/accordion";
import { DemoNote } from "~/site/components/demo-note";
import { ExternalAction } from "~/site/components/external-action";
import { Reveal } from "~/site/components/reveal";
import { demoNotes } from "~/site/copy/demo-notes";
import { articles } from "~/site/copy/home";
import { EmptyState } from "~/ui/item-card";
import type { Route } from "./+types/home";

export function ArticlesSection({
  notes,
  talksHref,
  timeZone,
  mayPublish,
  demo,
}: {
  notes: Route.ComponentProps["loaderData"]["notes"];
  talksHref: string | null;
  timeZone: string;
  mayPublish: boolean;
  /** The sections still holding the demo's content. */
  demo: ReadonlySet<string>;
}) {
  return (
    <section id="articles" className="home-section" aria-labelledby="articles-title">
      <Reveal>
        <h2 id="articles-title">{articles.title}</h2>
        <p className="section-intro">{articles.intro}</p>
        <Accordion
          label={articles.title}
          defaultOpen={articles.defaultOpen}
          items={[
            {
              key: "history",
              title: articles.techHistory.title,
              summary: articles.techHistory.summary,
              content: (
                <ul className="item-grid">
                  {articles.techHistory.items.map((item) => (
                    <li key={item.title} className="landing-card-text">
                      <h4>
                        <a href={item.href} target="_blank" rel="noopener noreferrer">
                          {item.title}
                          <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                        </a>
                      </h4>
                      <p className="muted">{item.text}</p>
                    </li>
                  ))}
                </ul>
              ),
            },
            ...(talksHref
              ? [
                  {
                    key: "talks" as const,
                    title: articles.talks.title,
                    summary: articles.talks.summary,
                    content: (
                      <div className="landing-card-text">
                        {demo.has("social") ? <DemoNote>{demoNotes.talks}</DemoNote> : null}
                        <p>{articles.talks.text}</p>
                        <ExternalAction
                          href={talksHref}
                          label={articles.talks.linkLabel}
                          className="button button-secondary"
                        />
                      </div>
                    ),
                  },
                ]
              : []),
            {
              key: "news",
              title: articles.news.title,
              summary: articles.news.summary,
              content: (
                <>
                  {notes.length === 0 ? (
                    <EmptyState title={articles.news.empty}>
                      {mayPublish ? (
                        <Link className="button" to="/projectsandnotes">
                          Publicar una nota
                        </Link>
                      ) : null}
                    </EmptyState>
                  ) : (
                    <>
                      <ul className="item-grid">
                        {notes.map((note) => (
                          <NoteCard key={note.id} note={note} timeZone={timeZone} heading="h4" />
                        ))}
                      </ul>
                      <p className="landing-more">
                        <Link className="button button-secondary" to={articles.news.allHref}>
                          {articles.news.allLabel}
                        </Link>
                      </p>
                    </>
                  )}
                </>
              ),
            },
          ]}
        />
      </Reveal>
    </section>
  );
}
