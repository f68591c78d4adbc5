// Home's featured projects.
import { Link } from "react-router";
import { ProjectCard } from "~/publications/components/publication-cards";
import { Reveal } from "~/site/components/reveal";
import { featured } from "~/site/copy/home";
import { EmptyState } from "~/ui/item-card";
import type { Route } from "./+types/home";

export function FeaturedSection({
  projects,
  timeZone,
  mayPublish,
}: {
  projects: Route.ComponentProps["loaderData"]["projects"];
  timeZone: string;
  mayPublish: boolean;
}) {
  return (
    <section id="featured" className="home-section" aria-labelledby="featured-title">
      <Reveal>
        <h2 id="featured-title">{featured.title}</h2>
        <p className="section-intro">{featured.intro}</p>
        {projects.length === 0 ? (
          <EmptyState title={featured.empty}>
            {mayPublish ? (
              <Link className="button" to="/projectsandnotes">
                Publicar un proyecto
              </Link>
            ) : null}
          </EmptyState>
        ) : (
          <>
            <ul className="item-grid">
              {projects.map((project) => (
                <ProjectCard key={project.id} project={project} timeZone={timeZone} />
              ))}
            </ul>
            <p className="landing-more">
              <Link className="button button-secondary" to={featured.allHref}>
                {featured.allLabel}
              </Link>
            </p>
          </>
        )}
      </Reveal>
    </section>
  );
}
