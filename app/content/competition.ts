// The competition page (/events, §2 "Competition landing page"): every word, date, logo and link.
// Edit them here; app/routes/landing/events.tsx only lays them out. Images live in
// public/landing/. Entries marked "placeholder" are waiting for the community's real ones.

interface CompetitionItem {
  name: string;
  /** Shown under the name: dates, or "Pendiente" while they are not fixed. */
  when: string;
  /** A page of this site or an https:// address; leave it out while the item is pending. */
  href?: string;
}

export interface Logo {
  name: string;
  logo: string;
  href?: string;
}

export const competition = {
  edition: "Clash Robotics Edición 2025",
  dateLabel: "6 de diciembre de 2025",
  /** The day itself, for the <time> element and search engines. */
  dateIso: "2025-12-06",
  tagline: "Cursos, competencias y toda la comunidad de robótica de Bolivia en un solo lugar.",
  /** §9: the loading logo shows for this long (not at all under reduced motion). */
  loadingMs: 1000,
  loadingLogo: "/logo.svg",
  eventsTitle: "Eventos",
  pendingLabel: "Pendiente",
  events: [
    { name: "Curso Micromouse", when: "4 - 7 Nov", href: "/clase1" },
    { name: "Curso Robot Sumo", when: "Pendiente" },
    { name: "Curso Seguidor de linea", when: "Pendiente" },
    { name: "Competencia Colegios", when: "Pendiente" },
    { name: "Competencia Universitarios", when: "Pendiente" },
  ] satisfies CompetitionItem[],
  store: {
    title: "Tienda oficial",
    text: "Poleras, stickers y kits de la competencia. Los anunciamos en nuestras redes.",
    image: "/landing/store.svg",
    buttonLabel: "Tienda",
    // The store's own page; null until there is one.
    href: null as string | null,
  },
  venue: {
    title: "Sede",
    location: "Obrajes C2, La Paz, Bolivia",
    locationLabel: "Ubicación: Obrajes C2, La Paz, Bolivia",
    mapTitle: "Mapa de la sede: Obrajes C2, La Paz, Bolivia",
    showMapLabel: "Mostrar el mapa",
    openMapLabel: "Abrir en Google Maps",
    image: "/landing/venue.svg",
  },
  benefitsTitle: "Beneficios",
  benefits: [
    { title: "Aprende haciendo", text: "Cursos prácticos con tu propio robot, desde cero." },
    { title: "Mentores de la comunidad", text: "Acompañamiento de quienes ya compitieron." },
    { title: "Certificado", text: "Constancia de participación en cada curso." },
    { title: "Premios", text: "Premios para los mejores equipos de colegios y universidades." },
    { title: "Comunidad", text: "Conoce a personas que construyen tecnología en Bolivia." },
  ],
  sponsorsTitle: "Patrocinadores",
  // placeholder: the competition's sponsors (public/landing/sponsor-*.svg).
  sponsors: [
    { name: "Patrocinador principal", logo: "/landing/sponsor-1.svg" },
    { name: "Patrocinador de cursos", logo: "/landing/sponsor-2.svg" },
  ] satisfies Logo[],
  alliesTitle: "Aliados",
  // placeholder: the competition's allies (public/landing/ally-*.svg).
  allies: [
    { name: "Aliado universitario", logo: "/landing/ally-1.svg" },
    { name: "Aliado maker", logo: "/landing/ally-2.svg" },
    { name: "Aliado educativo", logo: "/landing/ally-3.svg" },
  ] satisfies Logo[],
};

/** The Google Maps address of the venue: the embed and the plain link. */
export function venueMapUrls(location: string) {
  const q = encodeURIComponent(location);
  return {
    embed: `https://www.google.com/maps?q=${q}&output=embed`,
    link: `https://www.google.com/maps?q=${q}`,
  };
}
