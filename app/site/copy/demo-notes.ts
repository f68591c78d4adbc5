// What the pages say beside the demo's content (demo-sections.ts,
// docs/decisions/042-demo-sections.md).

/** What the pages say beside demo content ('Demo' badge, then the sentence). */
export const demoNotes = {
  badge: "Demo",
  leaders: "Contenido de demostración: personas de ejemplo.",
  organisations: "Contenido de demostración: organizaciones de ejemplo.",
  talks:
    "Contenido de demostración: el enlace abre una búsqueda en YouTube, no el canal de la comunidad.",
  course: "Contenido de demostración: el curso, el formulario y el grupo son de ejemplo.",
  courses: "Contenido de demostración: un curso de ejemplo, con fechas de ejemplo.",
  competition:
    "Contenido de demostración: una competencia de ejemplo, con equipos y resultados de ejemplo.",
  footer: "Contenido de demostración: redes de ejemplo.",
  adminPage:
    "Estas secciones tienen contenido de ejemplo, marcado en el sitio como demostración. Cambia cada una y guárdala: entonces deja de serlo.",
  adminSection:
    "Contenido de demostración: reemplázalo por el de la comunidad (o vacíalo) y guarda. Al guardar, deja de marcarse como demostración.",
};
