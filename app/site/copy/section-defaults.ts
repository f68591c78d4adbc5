// What the landing pages hold on a new site, before any admin edits them at /admin/sitio. The
// server writes each section once, when the database has no row for it (on start); from then on
// the database is the content (docs/decisions/023-site-content.md). Only the community's real
// content is here: no stand-in people, logos or links — a section without data is not shown. (A
// demo install, SEED_DEMO, fills those sections with marked examples: demo-sections.ts.) No
// dates, years or prices in words: they would go stale; the pages take them from the events an
// admin links (docs/decisions/076-landing-pages-read-the-sites-events.md).
import type { SiteSections } from "~/site/sections";
import { site } from "./site";

export const SITE_DEFAULTS: SiteSections = {
  hero: {
    eyebrow: "Robótica · Software libre · Bolivia",
    title: site.name,
    lead: "Construimos robots, compartimos conocimiento libre y competimos juntos. Una comunidad abierta para aprender tecnología en Bolivia.",
  },
  leaders: { leaders: [] },
  allies: { allies: [] },
  sponsors: {
    intro:
      "Su apoyo hace posibles los cursos y la competencia. ¿Quieres apoyar a la comunidad? Escríbenos por nuestras redes.",
    sponsors: [],
  },
  courses: {
    current: [
      {
        title: "Curso Preparatorio Micromouse",
        subtitle: "El Camino del Ratón",
        dates: "",
        image: "/landing/course-micromouse.svg",
        href: "/clase1",
        linkLabel: "Ver el curso",
      },
    ],
    past: [],
  },
  competition: {
    edition: "Clash Robotics",
    dateLabel: "",
    dateIso: "",
    tagline: "Cursos, competencias y toda la comunidad de robótica de Bolivia en un solo lugar.",
    events: [
      { name: "Curso Micromouse", when: "", href: "/clase1" },
      { name: "Curso Robot Sumo", when: "", href: "" },
      { name: "Curso Seguidor de linea", when: "", href: "" },
      { name: "Competencia Colegios", when: "", href: "" },
      { name: "Competencia Universitarios", when: "", href: "" },
    ],
    benefits: [
      { title: "Aprende haciendo", text: "Cursos prácticos con tu propio robot, desde cero." },
      { title: "Mentores de la comunidad", text: "Acompañamiento de quienes ya compitieron." },
      { title: "Certificado", text: "Constancia de participación en cada curso." },
      { title: "Premios", text: "Premios para los mejores equipos de colegios y universidades." },
      { title: "Comunidad", text: "Conoce a personas que construyen tecnología en Bolivia." },
    ],
  },
  venue: {
    storeTitle: "Tienda oficial",
    storeText: "Poleras, stickers y kits de la competencia. Los anunciamos en nuestras redes.",
    storeImage: "/landing/store.svg",
    storeHref: "",
    location: "Obrajes C2, La Paz, Bolivia",
    venueImage: "/landing/venue.svg",
  },
  course: {
    heading: "Curso Preparatorio Micromouse",
    intro: "Prepárate para Clash Robotics: construye y programa un robot que resuelve laberintos.",
    name: "El Camino del Ratón",
    price: "30bs",
    dates: "",
    summary: "Curso preparatorio para la categoría Micromouse de Clash Robotics.",
    image: "/landing/course-micromouse.svg",
    description:
      "Completa el formulario de inscripción y únete al grupo del curso, donde compartimos los materiales, el horario y el lugar.",
    eventId: "",
    formHref: "",
    groupLabel: "Grupo de WhatsApp del curso",
    groupHref: "",
    slides: [
      {
        title: "El Camino del Ratón",
        text: "Un robot pequeño, un laberinto y cuatro días para aprender a resolverlo.",
        image: "/landing/slide-maze.svg",
        imageAlt: "Dibujo de un laberinto visto desde arriba con un pequeño robot en la entrada",
      },
      {
        title: "Sensores y motores",
        text: "Aprende a leer las paredes con sensores y a mover el robot con precisión.",
        image: "/landing/slide-robot.svg",
        imageAlt: "Dibujo de un robot Micromouse con sus sensores y ruedas",
      },
      {
        title: "Algoritmos de laberinto",
        text: "Del seguidor de pared al algoritmo de inundación: programa cómo piensa tu robot.",
        image: "/landing/slide-algorithm.svg",
        imageAlt: "Dibujo de un laberinto con el camino más corto marcado",
      },
    ],
  },
  social: { links: [] },
};
