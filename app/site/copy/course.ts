// The course page's fixed words (/clase1, §2 "Micromouse course page"). The course itself — its
// slides, name, price, dates, texts and links — is edited at /admin/sitio (defaults:
// app/site/copy/section-defaults.ts); app/routes/landing/clase1.tsx lays it out.

export const coursePage = {
  carouselLabel: "Presentación del curso",
  coursesTitle: "Cursos disponibles",
  selectedLabel: "Seleccionado",
  selectLabel: "Seleccionar",
  enrolLabel: "INSCRÍBETE",
  dialogTitle: "Inscríbete Ahora",
  formLabel: "Formulario de Inscripción",
  // Registering in the site's event (decision 048): its page, where a paid place is held and paid.
  registerLabel: "Inscribirme en el sitio",
  registeredLabel: "Ver mi inscripción",
  closeLabel: "Cerrar",
  /** The course's event is over: no registration, and no date announced as coming. */
  overLabel: "Este curso ya terminó: anunciaremos el próximo.",
};
