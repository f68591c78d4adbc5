// The home page's fixed words (§2 Home): section titles, card names, the links between pages.
// The words, people, logos and courses that admins edit at /admin/sitio are in the database
// (defaults: app/site/copy/section-defaults.ts); the page (app/routes/landing/home.tsx) lays both out.

export const hero = {
  primaryAction: { label: "Próximos eventos", href: "#events" },
  // Shown to visitors only; members are already in.
  joinAction: { label: "Únete a la comunidad", href: "/login" },
};

export const community = {
  title: "Community",
  intro: "Personas y organizaciones que hacen posible la comunidad. Elige un grupo para conocerlo.",
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
};

export const courses = {
  title: "Courses",
  intro: "Cursos prácticos para aprender robótica desde cero, con tu propio robot.",
  currentTitle: "Cursos actuales",
  pastTitle: "Cursos pasados",
};

export const events = {
  title: "Events",
  intro: "Talleres, charlas y competencias de la comunidad.",
  competition: {
    title: "Robotics Competition",
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
    // The channel is the YouTube link among the social links (/admin/sitio); without one, this
    // card is not shown.
    linkLabel: "Ver las charlas en YouTube",
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
