// The sections of one event's management page (/admin/eventos/:id/:seccion), each its own address
// so that it opens without scripts and can be sent to a co-organiser; the page's other pages (the
// day's: participants, check-in, categories, teams, inspection) are listed beside them.

export const EVENT_SECTIONS = {
  datos: { path: "", label: "Datos del evento" },
  sesiones: { path: "sesiones", label: "Sesiones" },
  galeria: { path: "galeria", label: "Galería" },
  horario: { path: "horario", label: "Horario y enlaces" },
  certificado: { path: "certificado", label: "Certificado" },
  personal: { path: "personal", label: "Personal" },
} as const;

export type EventSection = keyof typeof EVENT_SECTIONS;

/** The section an address names (none: the event's data), or null when it names none. */
export function sectionOf(segment: string | undefined): EventSection | null {
  if (segment === undefined || segment === "") return "datos";
  const found = (Object.keys(EVENT_SECTIONS) as EventSection[]).find(
    (key) => key !== "datos" && EVENT_SECTIONS[key].path === segment,
  );
  return found ?? null;
}

/** A section's address on one event. */
export function sectionHref(eventId: string, section: EventSection) {
  const path = EVENT_SECTIONS[section].path;
  return `/admin/eventos/${eventId}${path ? `/${path}` : ""}`;
}

/** The day's pages of the same event, each a page of its own. */
export const EVENT_DAY_PAGES = [
  { path: "participantes", label: "Participantes y mensajes" },
  { path: "registro", label: "Registro de entrada" },
  { path: "categorias", label: "Categorías" },
  { path: "equipos", label: "Equipos" },
  { path: "inspeccion", label: "Puerta e inspección de robots" },
] as const;
