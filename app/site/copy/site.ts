// The site's own words: change them here, not in the components. The community's social links
// are edited at /admin/sitio (docs/decisions/023-site-content.md).
export const site = {
  name: "Ayllu",
  tagline: "Comunidad de robótica y tecnología de código abierto en Bolivia",
  description:
    "Ayllu reúne a la comunidad de robótica y tecnología de código abierto de Bolivia: eventos, cursos, notas, recursos y proyectos.",
} as const;

/** The home page's sections, in order: the navigation bar links to each. */
export const homeSections = [
  { id: "hero", label: "Home" },
  { id: "community", label: "Community" },
  { id: "courses", label: "Courses" },
  { id: "events", label: "Events" },
  { id: "articles", label: "Articles" },
  { id: "featured", label: "Featured" },
] as const;

/** The site's public areas: the header links to each, on every page. */
export const siteAreas = [
  { to: "/eventos", label: "Eventos", paths: ["/eventos", "/detalles"] },
  { to: "/notas", label: "Notas", paths: ["/notas"] },
  { to: "/recursos", label: "Recursos", paths: ["/recursos"] },
  { to: "/proyectos", label: "Proyectos", paths: ["/proyectos"] },
] as const;
