import { Link } from "react-router";
import { site } from "~/content/site";
import type { Route } from "./+types/home";

export function meta(_: Route.MetaArgs) {
  return [
    { title: `${site.name} — ${site.tagline}` },
    { name: "description", content: site.description },
  ];
}

export default function Home() {
  return (
    <div className="home">
      <section id="hero" className="home-section hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{site.name}</h1>
        <p className="lead">{site.tagline}.</p>
        <p className="hero-actions">
          <a className="button" href="#events">
            Próximos eventos
          </a>
          <Link className="button button-ghost" to="/login">
            Únete a la comunidad
          </Link>
        </p>
      </section>
      <section id="community" className="home-section" aria-labelledby="community-title">
        <h2 id="community-title">Community</h2>
        <p>Personas que construyen robots, enseñan y comparten conocimiento libre en toda Bolivia.</p>
      </section>
      <section id="courses" className="home-section" aria-labelledby="courses-title">
        <h2 id="courses-title">Courses</h2>
        <p>Cursos prácticos para aprender robótica desde cero.</p>
      </section>
      <section id="events" className="home-section" aria-labelledby="events-title">
        <h2 id="events-title">Events</h2>
        <p>Talleres, charlas y competencias de la comunidad.</p>
      </section>
      <section id="articles" className="home-section" aria-labelledby="articles-title">
        <h2 id="articles-title">Articles</h2>
        <p>Historia de la tecnología, nuestras charlas y noticias de la comunidad.</p>
      </section>
      <section id="featured" className="home-section" aria-labelledby="featured-title">
        <h2 id="featured-title">Featured</h2>
        <p>Proyectos destacados hechos por la comunidad.</p>
      </section>
    </div>
  );
}
