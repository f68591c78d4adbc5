// The forms of the landing sections (/admin/sitio, docs/decisions/023-site-content.md): each
// section's fields and lists, their labels, limits and kinds, and how rows travel in a form.
// Shared by the browser and the server, without the validation library; the schemas built from
// these specs are in section-schemas.ts.
import { isHttpUrl, isRealDate, safeImageUrl } from "~/kernel/checks";
import { isSitePath, type SiteSections, type SiteSectionKey } from "./sections";

/** text: one line; textarea: a paragraph; url: an outside http(s) address; link: an outside
 * address or a page of this site (/clase1); image: an image's address (outside or on this site);
 * event: one of the site's events, by its id (chosen from a list). */
export type SiteFieldKind = "text" | "textarea" | "url" | "link" | "image" | "date" | "event";

export interface SiteFieldSpec {
  name: string;
  label: string;
  kind: SiteFieldKind;
  max: number;
  required?: boolean;
  hint?: string;
}

export interface SiteListSpec {
  name: string;
  /** The list's title in the form ('Líderes'). */
  legend: string;
  /** What one row is called ('Líder'): rows are 'Líder 1', 'Líder 2'… */
  rowLabel: string;
  fields: SiteFieldSpec[];
  max: number;
  hint?: string;
}

export interface SiteSectionSpec {
  key: SiteSectionKey;
  title: string;
  /** Where the section shows on the site, said to the admin. */
  where: string;
  fields: SiteFieldSpec[];
  lists: SiteListSpec[];
  /** A plain list of outside links, edited with the link-list editor. */
  links?: { name: string; legend: string; label: string; max: number; hint: string };
}

const NAME_MAX = 120;
const SHORT_MAX = 200;
const PARAGRAPH_MAX = 1000;
const ADDRESS_MAX = 2000;

const text = (name: string, label: string, max = SHORT_MAX, required = false): SiteFieldSpec => ({
  name,
  label,
  kind: "text",
  max,
  required,
});
const paragraph = (name: string, label: string, required = false): SiteFieldSpec => ({
  name,
  label,
  kind: "textarea",
  max: PARAGRAPH_MAX,
  required,
});
const image = (name: string, label: string, required = false): SiteFieldSpec => ({
  name,
  label,
  kind: "image",
  max: ADDRESS_MAX,
  required,
});
const outside = (name: string, label: string, hint: string): SiteFieldSpec => ({
  name,
  label,
  kind: "url",
  max: ADDRESS_MAX,
  hint,
});
const link = (name: string, label: string, hint: string): SiteFieldSpec => ({
  name,
  label,
  kind: "link",
  max: ADDRESS_MAX,
  hint,
});

const organisationFields: SiteFieldSpec[] = [
  text("name", "Nombre", NAME_MAX, true),
  text("description", "Descripción"),
  image("logo", "Logo", true),
  outside("href", "Sitio web", "Opcional: sin enlace, el nombre se muestra solo."),
];

const courseFields: SiteFieldSpec[] = [
  text("title", "Título", NAME_MAX, true),
  text("subtitle", "Subtítulo"),
  text("dates", "Fechas", NAME_MAX),
  image("image", "Imagen"),
  link("href", "Enlace", "Opcional: /clase1 o una dirección https://. Sin enlace no hay botón."),
  text("linkLabel", "Texto del botón", NAME_MAX),
  {
    name: "eventId",
    label: "Evento de la inscripción",
    kind: "event",
    max: 36,
    hint: "Con un evento, la tarjeta muestra sus fechas y precio (no los de arriba) y el botón lleva a inscribirse en él aquí. Sin evento, al enlace de arriba.",
  },
];

/** Every section, in the order of /admin/sitio. */
export const SITE_SECTIONS: readonly SiteSectionSpec[] = [
  {
    key: "hero",
    title: "Portada",
    where: "La presentación al abrir la página de inicio.",
    fields: [
      text("eyebrow", "Antetítulo"),
      text("title", "Título", NAME_MAX, true),
      paragraph("lead", "Texto de presentación"),
    ],
    lists: [],
  },
  {
    key: "leaders",
    title: "Líderes",
    where: "Inicio › Community › Ambassador Members. Sin líderes, la tarjeta no se muestra.",
    fields: [],
    lists: [
      {
        name: "leaders",
        legend: "Líderes",
        rowLabel: "Líder",
        max: 24,
        fields: [
          text("name", "Nombre", NAME_MAX, true),
          text("role", "Rol", NAME_MAX),
          image("image", "Foto", true),
        ],
        hint: "Fotos cuadradas.",
      },
    ],
  },
  {
    key: "allies",
    title: "Aliados",
    where: "Inicio › Community › Allies, y sus logos en /events.",
    fields: [],
    lists: [
      {
        name: "allies",
        legend: "Aliados",
        rowLabel: "Aliado",
        max: 24,
        fields: organisationFields,
        hint: "Logos de proporción 2:1.",
      },
    ],
  },
  {
    key: "sponsors",
    title: "Patrocinadores",
    where: "Inicio › Community › Sponsors, y sus logos en /events.",
    fields: [paragraph("intro", "Texto sobre el apoyo")],
    lists: [
      {
        name: "sponsors",
        legend: "Patrocinadores",
        rowLabel: "Patrocinador",
        max: 24,
        fields: organisationFields,
        hint: "Logos de proporción 2:1.",
      },
    ],
  },
  {
    key: "courses",
    title: "Cursos",
    where: "Inicio › Courses: los cursos actuales y los pasados.",
    fields: [],
    lists: [
      {
        name: "current",
        legend: "Cursos actuales",
        rowLabel: "Curso actual",
        max: 12,
        fields: courseFields,
      },
      {
        name: "past",
        legend: "Cursos pasados",
        rowLabel: "Curso pasado",
        max: 24,
        fields: courseFields,
      },
    ],
  },
  {
    key: "competition",
    title: "Competencia",
    where:
      "La página /events y la tarjeta Robotics Competition del inicio. Con una competencia del sitio en un evento de la lista, las encabeza su nombre, fechas y lugar; la edición y la fecha de aquí solo se muestran sin ella (y una fecha pasada, nunca).",
    fields: [
      text("edition", "Edición", NAME_MAX, true),
      text("dateLabel", "Fecha, como se muestra", NAME_MAX),
      { name: "dateIso", label: "Fecha (para buscadores y calendarios)", kind: "date", max: 10 },
      paragraph("tagline", "Lema"),
    ],
    lists: [
      {
        name: "events",
        legend: "Eventos de la competencia",
        rowLabel: "Evento",
        max: 24,
        fields: [
          text("name", "Nombre", NAME_MAX, true),
          text("when", "Fechas", NAME_MAX),
          link("href", "Enlace", "Sin enlace ni competencia, el evento se marca 'Pendiente'."),
          {
            name: "eventId",
            label: "Competencia en el sitio",
            kind: "event",
            max: 36,
            hint: "Con un evento del sitio, la fila muestra su nombre y fechas (no los de arriba) y lleva a su página y a cada categoría.",
          },
        ],
      },
      {
        name: "benefits",
        legend: "Beneficios",
        rowLabel: "Beneficio",
        max: 12,
        fields: [text("title", "Título", NAME_MAX, true), text("text", "Texto", SHORT_MAX)],
      },
    ],
  },
  {
    key: "venue",
    title: "Tienda y sede",
    where: "La página /events: la tarjeta de la tienda y la de la sede con su mapa.",
    fields: [
      text("storeTitle", "Título de la tienda", NAME_MAX),
      paragraph("storeText", "Texto de la tienda"),
      image("storeImage", "Imagen de la tienda"),
      outside("storeHref", "Página de la tienda", "Sin página, no hay botón 'Tienda'."),
      text("location", "Dirección de la sede", SHORT_MAX),
      image("venueImage", "Imagen de la sede"),
    ],
    lists: [],
  },
  {
    key: "course",
    title: "Curso (/clase1)",
    where: "La página /clase1: presentación, tarjeta del curso e 'Inscríbete Ahora'.",
    fields: [
      text("heading", "Título de la página", NAME_MAX, true),
      paragraph("intro", "Introducción"),
      text("name", "Nombre del curso", NAME_MAX, true),
      text("price", "Precio", 40),
      text("dates", "Fechas", NAME_MAX),
      text("summary", "Resumen", SHORT_MAX),
      image("image", "Imagen del curso"),
      paragraph("description", "Texto de 'Inscríbete Ahora'"),
      {
        name: "eventId",
        label: "Evento de la inscripción",
        kind: "event",
        max: 36,
        hint: "Con un evento, la página muestra sus fechas, sesiones, precio y cupos (no los de arriba), 'Inscríbete Ahora' lleva a inscribirse en él aquí y el grupo se muestra después de inscribirse. Sin evento, al formulario de abajo.",
      },
      outside(
        "formHref",
        "Formulario de Inscripción",
        "La dirección del formulario. Sin formulario ni grupo, no hay botón INSCRÍBETE.",
      ),
      text("groupLabel", "Nombre del grupo", NAME_MAX),
      outside("groupHref", "Enlace de invitación al grupo", "Opcional."),
    ],
    lists: [
      {
        name: "slides",
        legend: "Diapositivas",
        rowLabel: "Diapositiva",
        max: 12,
        fields: [
          text("title", "Título", NAME_MAX, true),
          text("text", "Texto", SHORT_MAX),
          image("image", "Imagen", true),
          text("imageAlt", "Descripción de la imagen", SHORT_MAX),
        ],
        hint: "Imágenes de proporción 16:9.",
      },
    ],
  },
  {
    key: "social",
    title: "Redes sociales",
    where: "El pie de todas las páginas; el enlace de YouTube también abre 'Our Talks'.",
    fields: [],
    lists: [],
    links: {
      name: "links",
      legend: "Redes sociales",
      label: "Enlace",
      max: 12,
      hint: "La página de la comunidad en cada red (https://…). El nombre de la red se pone solo.",
    },
  },
];

export const SITE_SECTION_KEYS = SITE_SECTIONS.map((s) => s.key);

export function isSiteSectionKey(value: unknown): value is SiteSectionKey {
  return typeof value === "string" && (SITE_SECTION_KEYS as readonly string[]).includes(value);
}

export function sectionSpec(key: SiteSectionKey): SiteSectionSpec {
  return SITE_SECTIONS.find((s) => s.key === key)!;
}

/** Whether a value is what a field of this kind accepts (blank is checked apart). */
export function fieldValueOk(kind: SiteFieldKind, value: string): boolean {
  switch (kind) {
    case "url":
      return isHttpUrl(value);
    case "link":
      return isHttpUrl(value) || isSitePath(value);
    case "image":
      return safeImageUrl(value) === value && !/\s/.test(value);
    case "date":
      return isRealDate(value);
    case "event":
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
    default:
      return true;
  }
}

/** Content with nothing in it: what a section shows when it has no row (nothing). */
export function emptySection<K extends SiteSectionKey>(key: K): SiteSections[K] {
  const spec = sectionSpec(key);
  const value: Record<string, unknown> = {};
  for (const field of spec.fields) value[field.name] = "";
  for (const list of spec.lists) value[list.name] = [];
  if (spec.links) value[spec.links.name] = [];
  return value as SiteSections[K];
}

// ——— Rows as a form posts them: one repeated input per field, `<list>.<field>` ———

export function rowFieldName(list: string, field: string): string {
  return `${list}.${field}`;
}

/** The rows of `list` from a form's values (parallel repeated fields), in order. */
export function rowsFromValues(
  values: Record<string, unknown>,
  list: SiteListSpec,
): Record<string, string>[] {
  const columns = list.fields.map((f) => {
    const raw = values[rowFieldName(list.name, f.name)];
    return Array.isArray(raw) ? raw.map(String) : typeof raw === "string" ? [raw] : [];
  });
  const count = Math.max(0, ...columns.map((c) => c.length));
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(list.fields.map((f, j) => [f.name, columns[j]![i] ?? ""])),
  );
}

/** The form's values for a section's stored content. */
export function valuesFromSection(key: SiteSectionKey, content: object): Record<string, unknown> {
  const spec = sectionSpec(key);
  const source = content as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const field of spec.fields) values[field.name] = source[field.name] ?? "";
  for (const list of spec.lists) {
    const rows = (source[list.name] ?? []) as Record<string, string>[];
    for (const field of list.fields)
      values[rowFieldName(list.name, field.name)] = rows.map((r) => r[field.name] ?? "");
  }
  if (spec.links) values[spec.links.name] = source[spec.links.name] ?? [];
  return values;
}

/**
 * A row list changed without JavaScript: `rowAction` is `<list>:add`, `<list>:remove-<i>`,
 * `<list>:up-<i>` or `<list>:down-<i>`. Returns the values with the rows changed, or null when
 * the action names no list of this section.
 */
export function applyRowAction(
  key: SiteSectionKey,
  values: Record<string, unknown>,
  action: string,
): Record<string, unknown> | null {
  const match = /^([\w]+):(add|remove|up|down)(?:-(\d{1,3}))?$/.exec(action);
  const list = match ? sectionSpec(key).lists.find((l) => l.name === match[1]) : undefined;
  if (!match || !list) return null;
  const rows = rowsFromValues(values, list);
  const index = Number(match[3] ?? -1);
  const verb = match[2];
  if (verb === "add" && rows.length < list.max)
    rows.push(Object.fromEntries(list.fields.map((f) => [f.name, ""])));
  else if (verb !== "add" && (index < 0 || index >= rows.length)) return null;
  else if (verb === "remove") rows.splice(index, 1);
  else if (verb === "up" && index > 0) rows.splice(index - 1, 0, ...rows.splice(index, 1));
  else if (verb === "down" && index < rows.length - 1)
    rows.splice(index + 1, 0, ...rows.splice(index, 1));
  const next = { ...values };
  for (const field of list.fields)
    next[rowFieldName(list.name, field.name)] = rows.map((r) => r[field.name] ?? "");
  return next;
}
