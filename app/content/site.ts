// The site's own words and links: change them here, not in the components.
// Links marked "replace" point at the platform until the community fills in its own page.
export const site = {
  name: "Ayllu",
  tagline: "Comunidad de robótica y tecnología de código abierto en Bolivia",
  description:
    "Ayllu reúne a la comunidad de robótica y tecnología de código abierto de Bolivia: eventos, cursos, notas, recursos y proyectos.",
  social: [
    // replace: the community's own pages
    { label: "Facebook", href: "https://www.facebook.com/" },
    { label: "Instagram", href: "https://www.instagram.com/" },
    { label: "YouTube", href: "https://www.youtube.com/" },
    { label: "GitHub", href: "https://github.com/" },
  ],
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
