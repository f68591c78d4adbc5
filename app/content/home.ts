// The home page's words, names, photos, logos and links (§2 Home). Edit them here; the page
// (app/routes/landing/home.tsx) only lays them out. Images live in public/landing/: replace a
// placeholder file with a photo or logo of the same name, or point `image` at another file or an
// https:// address. Entries marked "placeholder" are waiting for the community's real ones.
import { site } from "./site";

interface Person {
  name: string;
  role: string;
  /** A file under public/ (starts with "/") or an https:// address. */
  image: string;
}

export interface Organisation {
  name: string;
  description: string;
  logo: string;
  /** Their site; leave it out and the name is shown without a link. */
  href?: string;
}

export const hero = {
  eyebrow: "Robótica · Software libre · Bolivia",
  title: site.name,
  lead: "Construimos robots, compartimos conocimiento libre y competimos juntos. Una comunidad abierta para aprender tecnología en Bolivia.",
  primaryAction: { label: "Próximos eventos", href: "#events" },
  // Shown to visitors only; members are already in.
  joinAction: { label: "Únete a la comunidad", href: "/login" },
};

export const community = {
  title: "Community",
  intro: "Personas y organizaciones que hacen posible la comunidad. Elige un grupo para conocerlo.",
  /** Which card is open when the page loads ("" for none). */
  defaultOpen: "ambassadors" as "ambassadors" | "allies" | "sponsors" | "",
  cards: {
    ambassadors: {
      title: "Ambassador Members",
      summary: "Quienes lideran talleres, cursos y competencias.",
    },
    allies: {
      title: "Allies",
      summary: "Organizaciones que caminan con nosotros.",
    },
    sponsors: {
      title: "Sponsors",
      summary: "Quienes apoyan con recursos y espacios.",
    },
  },
  // placeholder: the five leaders' names, roles and photos (public/landing/leader-*.svg).
  leaders: [
    { name: "Coordinación general", role: "Organiza la comunidad", image: "/landing/leader-1.svg" },
    {
      name: "Mentoría de robótica",
      role: "Micromouse y Robot Sumo",
      image: "/landing/leader-2.svg",
    },
    {
      name: "Mentoría de electrónica",
      role: "Sensores y circuitos",
      image: "/landing/leader-3.svg",
    },
    {
      name: "Mentoría de software",
      role: "Programación y software libre",
      image: "/landing/leader-4.svg",
    },
    { name: "Comunicación", role: "Redes y charlas", image: "/landing/leader-5.svg" },
  ] satisfies Person[],
  // placeholder: the three allies (public/landing/ally-*.svg).
  allies: [
    {
      name: "Aliado universitario",
      description: "Clubes de robótica de universidades",
      logo: "/landing/ally-1.svg",
    },
    {
      name: "Aliado maker",
      description: "Espacios maker y hackerspaces",
      logo: "/landing/ally-2.svg",
    },
    {
      name: "Aliado educativo",
      description: "Colegios y docentes de tecnología",
      logo: "/landing/ally-3.svg",
    },
  ] satisfies Organisation[],
  sponsorsIntro:
    "Su apoyo hace posibles los cursos y la competencia. ¿Quieres apoyar a la comunidad? Escríbenos por nuestras redes.",
  // placeholder: the sponsors (public/landing/sponsor-*.svg).
  sponsors: [
    {
      name: "Patrocinador principal",
      description: "Apoyo a Clash Robotics 2025",
      logo: "/landing/sponsor-1.svg",
    },
    {
      name: "Patrocinador de cursos",
      description: "Materiales para los cursos",
      logo: "/landing/sponsor-2.svg",
    },
  ] satisfies Organisation[],
};

export interface CourseCard {
  title: string;
  subtitle: string;
  dates: string;
  image: string;
  /** A page of this site ("/clase1") or an https:// address; leave it out for no link. */
  href?: string;
  linkLabel?: string;
}

export const courses = {
  title: "Courses",
  intro: "Cursos prácticos para aprender robótica desde cero, con tu propio robot.",
  currentTitle: "Cursos actuales",
  current: [
    {
      title: "Curso Preparatorio Micromouse",
      subtitle: "El Camino del Ratón · 30bs",
      dates: "Del martes 4 al viernes 7 de noviembre",
      image: "/landing/course-micromouse.svg",
      href: "/clase1",
      linkLabel: "Ver el curso",
    },
  ] satisfies CourseCard[],
  pastTitle: "Cursos pasados",
  // placeholder: the community's past courses.
  past: [
    {
      title: "Introducción a Arduino",
      subtitle: "Circuitos, sensores y motores",
      dates: "2024",
      image: "/landing/course-arduino.svg",
    },
    {
      title: "Robot Seguidor de Línea",
      subtitle: "Control PID en la práctica",
      dates: "2024",
      image: "/landing/course-line-follower.svg",
    },
  ] satisfies CourseCard[],
};

export const events = {
  title: "Events",
  intro: "Talleres, charlas y competencias de la comunidad.",
  competition: {
    title: "Robotics Competition",
    text: "Clash Robotics Edición 2025: cursos, competencias para colegios y universidades, y el gran día el 6 de diciembre.",
    image: "/landing/competition.svg",
    href: "/events",
    linkLabel: "Ver la competencia",
  },
  upcomingTitle: "Próximos eventos",
  noUpcoming: "No hay eventos próximos por ahora. ¡Vuelve pronto!",
  allLabel: "Ver todos los eventos",
  allHref: "/eventos",
};

interface TechHistoryItem {
  title: string;
  text: string;
  href: string;
}

export const articles = {
  title: "Articles",
  intro: "Historia de la tecnología, nuestras charlas y noticias de la comunidad.",
  /** Which card is open when the page loads. */
  defaultOpen: "news" as "history" | "talks" | "news",
  techHistory: {
    title: "Tech History",
    summary: "Las ideas y personas que hicieron posible la tecnología que usamos.",
    items: [
      {
        title: "Ada Lovelace y el primer programa",
        text: "En 1843 escribió el primer algoritmo pensado para una máquina.",
        href: "https://es.wikipedia.org/wiki/Ada_Lovelace",
      },
      {
        title: "El concurso Micromouse",
        text: "Desde finales de los años 70, pequeños robots resuelven laberintos solos.",
        href: "https://es.wikipedia.org/wiki/Micromouse",
      },
      {
        title: "El software libre",
        text: "En 1983 nació el proyecto GNU y con él la idea de compartir el código.",
        href: "https://es.wikipedia.org/wiki/Software_libre",
      },
    ] satisfies TechHistoryItem[],
  },
  talks: {
    title: "Our Talks",
    summary: "Charlas de la comunidad sobre robótica, electrónica y software libre.",
    text: "Grabamos nuestras charlas para que nadie se quede sin aprender. Encuéntralas en nuestro canal.",
    linkLabel: "Ver las charlas en YouTube",
    href: site.social.find((link) => link.label === "YouTube")?.href ?? null,
  },
  news: {
    title: "Community News",
    summary: "Lo último de la comunidad.",
    empty: "Todavía no hay noticias publicadas.",
    allLabel: "Ver todas las noticias",
    allHref: "/notas",
  },
};

export const featured = {
  title: "Featured",
  intro: "Proyectos destacados hechos por la comunidad.",
  empty: "Todavía no hay proyectos publicados.",
  allLabel: "Ver todos los proyectos",
  allHref: "/proyectos",
};
