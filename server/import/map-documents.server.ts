// Firestore documents → rows, through the very schemas the forms use (app/kernel/fields.ts,
// app/publications/schemas.ts). A value a form would refuse is not stored and is reported with its
// collection, document id and field; what stays valid of the document is kept. A document that
// loses a field its table cannot do without is skipped, with the reasons.
import { z } from "zod";
import { NoteSchema, ProjectSchema, ResourceSchema } from "~/publications/schemas";
import { EventSchema, GalleryImageSchema } from "~/events/schemas";
import { linkListField, optionalHttpUrlField, optionalText } from "~/kernel/fields";
import { ProfileSchema, birthDateField, generoField, habilidadesField } from "~/members/schemas";
import { zonedDateTime } from "~/kernel/time";
import { DocRef, GeoPoint, TextWithNul, type ExportDocument } from "./read-export.server";

export interface Issue {
  collection: string;
  documentId: string;
  field?: string;
  /** The reason, the same words for every document it applies to (the report groups by it). */
  message: string;
  /** What differs from one document to the next: the refused value, an id. */
  detail?: string;
}

export type Reporter = (field: string | undefined, message: string, detail?: string) => void;

/** Why a document is not imported: the reasons, and the values behind them. */
export interface Refusal {
  ok: false;
  reasons: string[];
  details: string[];
}

const DISPLAY_NAME_MAX = 200;
const EMAIL_MAX = 320;

/** A short, safe rendering of a refused value for the report. */
export function describeValue(value: unknown): string {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? "fecha no válida" : value.toISOString();
  if (value instanceof GeoPoint) return `GeoPoint(${value.latitude}, ${value.longitude})`;
  if (value instanceof DocRef) return `referencia ${value.path}`;
  if (value instanceof TextWithNul) return "texto con un carácter nulo";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The refused value, as a report shows it beside the reason. */
export function valueDetail(value: unknown): string {
  return `valor: ${describeValue(value)}`;
}

/** A value as an instant, from any Timestamp shape the reader decoded, an ISO string or epoch ms. */
export function asInstant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

/** createdAt / updatedAt: any Timestamp shape; missing or odd values are reported. */
export function readTime(
  fields: Record<string, unknown>,
  field: string,
  report: Reporter,
  options: { fallback: Date | null; missingIsNormal?: boolean },
): Date | null {
  const value = fields[field];
  if (value === undefined || value === null) {
    if (!options.missingIsNormal) {
      report(field, options.fallback ? "falta; se usa la hora de la importación" : "falta");
    }
    return options.fallback;
  }
  const instant = asInstant(value);
  if (instant) return instant;
  report(
    field,
    options.fallback
      ? "no es una fecha válida; se usa la hora de la importación"
      : "no es una fecha válida",
    valueDetail(value),
  );
  return options.fallback;
}

const listItemCheck = {
  link: linkListField(),
  youtube: linkListField({ youtube: true }),
} as const;

/**
 * Keeps the valid items of a link list (blanks dropped as a form does), reporting each refused
 * item as `field[i]`.
 */
function cleanList(
  value: unknown,
  field: string,
  kind: keyof typeof listItemCheck,
  report: Reporter,
): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : typeof value === "string" ? [value] : null;
  if (!items) {
    report(field, "debe ser una lista de enlaces", valueDetail(value));
    return [];
  }
  const kept: string[] = [];
  items.forEach((item, index) => {
    const parsed = listItemCheck[kind].safeParse([item]);
    if (!parsed.success) {
      report(
        `${field}[${index}]`,
        parsed.error.issues[0]?.message ?? "enlace no válido",
        valueDetail(item),
      );
    } else if (parsed.data[0] !== undefined) {
      kept.push(parsed.data[0]);
    }
  });
  return kept;
}

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * Validates `input` with a form's object schema. An optional field that fails is dropped
 * (reported) and the rest parsed again; a required one that fails skips the document.
 */
function validateObject<S extends ObjectSchema>(
  schema: S,
  input: Record<string, unknown>,
  report: Reporter,
): { ok: true; data: z.output<S> } | Refusal {
  const values = { ...input };
  const accepts = (field: string, value: unknown) =>
    (schema.shape[field] as z.ZodType | undefined)?.safeParse(value).success === true;
  // A field the form may leave blank is blank when the document lacks it.
  for (const field of Object.keys(schema.shape)) {
    if (!(field in values) && !accepts(field, undefined) && accepts(field, "")) values[field] = "";
  }
  for (let round = 0; round < 3; round++) {
    const parsed = schema.safeParse(values);
    if (parsed.success) return { ok: true, data: parsed.data };
    const reasons: string[] = [];
    const details: string[] = [];
    let dropped = false;
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      if (!(field in values)) {
        reasons.push(`${field}: ${issue.message}`);
        continue;
      }
      const optional = accepts(field, undefined) || accepts(field, "");
      if (optional) {
        report(field, issue.message, valueDetail(values[field]));
        if (accepts(field, undefined)) delete values[field];
        else values[field] = "";
        dropped = true;
      } else {
        reasons.push(`${field}: ${issue.message}`);
        details.push(`${field}: ${valueDetail(values[field])}`);
      }
    }
    if (reasons.length > 0) return { ok: false, reasons, details };
    if (!dropped) break;
  }
  return { ok: false, reasons: ["el documento no es válido"], details: [] };
}

function pick(fields: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = fields[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

/** Fields of a document that no column holds. */
function reportUnknown(
  fields: Record<string, unknown>,
  known: readonly string[],
  report: Reporter,
) {
  for (const key of Object.keys(fields)) {
    if (!known.includes(key)) report(key, "campo desconocido; no se guarda");
  }
}

/** Subcollections and reserved keys: what a document held that is not imported. */
export function reportLeftOut(doc: ExportDocument, report: Reporter) {
  for (const [name, count] of doc.subcollections) {
    report(name, "subcolección que Ayllu no usa; no se importa", `${count} documento(s)`);
  }
  for (const key of doc.reservedKeys) {
    report(key, "clave reservada (de Firestore o de JavaScript); se omite");
  }
}

/** An optional text field; a value that is not text or too long is reported and left out. */
function optionalString(
  value: unknown,
  field: string,
  max: number,
  report: Reporter,
): string | null {
  if (value === undefined || value === null) return null;
  const parsed = optionalText(max).safeParse(value);
  if (!parsed.success) {
    report(field, parsed.error.issues[0]?.message ?? "no es texto", valueDetail(value));
    return null;
  }
  return parsed.data || null;
}

/** A uid from a plain string or a DocumentReference. */
export function uidOf(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  if (value instanceof DocRef && value.id) return value.id;
  return null;
}

// ——— usuarios ———

export interface MemberValues {
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
  isAdmin: boolean;
  nombreCompleto: string | null;
  fechaNacimiento: string | null;
  pais: string | null;
  ciudad: string | null;
  genero: z.output<typeof generoField> | null;
  habilidades: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  /**
   * The fields the document holds with a value that was kept (an empty text included): only
   * these may change a member who exists already. A missing or refused field changes nothing.
   */
  given: Set<keyof MemberValues>;
}

const USER_FIELDS = [
  "uid",
  "email",
  "displayName",
  "photoURL",
  "createdAt",
  "isAdmin",
  "nombreCompleto",
  "fechaNacimiento",
  "pais",
  "ciudad",
  "genero",
  "habilidades",
  "updatedAt",
] as const;

function profileField<K extends keyof typeof ProfileSchema.shape>(
  key: K,
  value: unknown,
  report: Reporter,
): z.output<(typeof ProfileSchema.shape)[K]> | null {
  if (value === undefined || value === null || value === "") return null;
  const parsed = ProfileSchema.shape[key].safeParse(value);
  if (parsed.success) return parsed.data as z.output<(typeof ProfileSchema.shape)[K]>;
  report(key, parsed.error.issues[0]?.message ?? "valor no válido", valueDetail(value));
  return null;
}

/** A usuarios document (or nothing, for an Auth user without profile) → a member's columns. */
export function mapMember(
  fields: Record<string, unknown>,
  timeZone: string,
  reportTo: Reporter,
): MemberValues {
  const refused = new Set<string>();
  const report: Reporter = (field, message, detail) => {
    if (field) refused.add(field);
    reportTo(field, message, detail);
  };
  reportUnknown(fields, USER_FIELDS, report);
  let email: string | null = null;
  if (fields.email !== undefined && fields.email !== null) {
    if (
      typeof fields.email === "string" &&
      fields.email.trim().length <= EMAIL_MAX &&
      fields.email.includes("@")
    ) {
      email = fields.email.trim();
    } else {
      report("email", "no es un correo electrónico", valueDetail(fields.email));
    }
  }
  const displayName = optionalString(fields.displayName, "displayName", DISPLAY_NAME_MAX, report);
  let photoURL: string | null = null;
  if (fields.photoURL !== undefined && fields.photoURL !== null) {
    const parsed = optionalHttpUrlField().safeParse(fields.photoURL);
    if (parsed.success) photoURL = parsed.data;
    else
      report(
        "photoURL",
        parsed.error.issues[0]?.message ?? "URL no válida",
        valueDetail(fields.photoURL),
      );
  }
  let isAdmin = false;
  if (fields.isAdmin !== undefined && fields.isAdmin !== null) {
    if (typeof fields.isAdmin === "boolean") isAdmin = fields.isAdmin;
    else
      report(
        "isAdmin",
        "debe ser true o false; no se cambia (un miembro nuevo no es administrador)",
        valueDetail(fields.isAdmin),
      );
  }
  let birth = fields.fechaNacimiento;
  if (birth instanceof Date && !Number.isNaN(birth.getTime()))
    birth = zonedDateTime(birth, timeZone).date;
  let fechaNacimiento: string | null = null;
  if (birth !== undefined && birth !== null && birth !== "") {
    const parsed = birthDateField.safeParse(birth);
    if (parsed.success) fechaNacimiento = parsed.data;
    else
      report(
        "fechaNacimiento",
        parsed.error.issues[0]?.message ?? "fecha no válida",
        valueDetail(fields.fechaNacimiento),
      );
  }
  let genero: MemberValues["genero"] = null;
  if (fields.genero !== undefined && fields.genero !== null && fields.genero !== "") {
    const parsed = generoField.safeParse(fields.genero);
    if (parsed.success) genero = parsed.data;
    else
      report(
        "genero",
        parsed.error.issues[0]?.message ?? "género no válido",
        valueDetail(fields.genero),
      );
  }
  let habilidades = "";
  if (fields.habilidades !== undefined && fields.habilidades !== null) {
    const parsed = habilidadesField.safeParse(fields.habilidades);
    if (parsed.success) habilidades = parsed.data;
    else
      report(
        "habilidades",
        parsed.error.issues[0]?.message ?? "no válido",
        valueDetail(fields.habilidades),
      );
  }
  const values: Omit<MemberValues, "given"> = {
    email,
    emailVerified: false,
    displayName,
    photoURL,
    isAdmin,
    nombreCompleto: profileField("nombreCompleto", fields.nombreCompleto, report),
    fechaNacimiento,
    pais: profileField("pais", fields.pais, report),
    ciudad: profileField("ciudad", fields.ciudad, report),
    genero,
    habilidades,
    createdAt:
      "createdAt" in fields ? readTime(fields, "createdAt", report, { fallback: null }) : null,
    updatedAt: readTime(fields, "updatedAt", report, { fallback: null, missingIsNormal: true }),
  };
  const given = new Set<keyof MemberValues>();
  for (const key of Object.keys(values) as (keyof MemberValues)[]) {
    if (fields[key] !== undefined && fields[key] !== null && !refused.has(key)) given.add(key);
  }
  return { ...values, given };
}

// ——— eventos ———

const EVENT_FORM_FIELDS = [
  "nombreEvento",
  "ubicacionEvento",
  "tipoEvento",
  "enlacesVirtuales",
  "fechaEvento",
  "horaEvento",
  "imagenEnlace",
  "ubicacionEspecifica",
  "descripcion",
] as const;
const EVENT_FIELDS = [
  ...EVENT_FORM_FIELDS,
  "galleryImages",
  "createdAt",
  "updatedAt",
  "publishedBy",
  "publishedByName",
  "id",
] as const;

export interface MappedEvent {
  input: z.output<typeof EventSchema>;
  gallery: string[];
  createdAt: Date;
  updatedAt: Date | null;
  publishedByUid: string | null;
  publishedByName: string | null;
}

export function mapEvent(
  fields: Record<string, unknown>,
  timeZone: string,
  now: Date,
  report: Reporter,
): { ok: true; value: MappedEvent } | Refusal {
  reportUnknown(fields, EVENT_FIELDS, report);
  const input = pick(fields, EVENT_FORM_FIELDS);
  // A date saved as a Timestamp: its day (and, with no horaEvento, its time) in SITE_TIMEZONE.
  const fecha = asInstant(input.fechaEvento);
  if (input.fechaEvento instanceof Date && fecha) {
    const parts = zonedDateTime(fecha, timeZone);
    input.fechaEvento = parts.date;
    if (input.horaEvento === undefined) input.horaEvento = parts.time;
  }
  if (input.tipoEvento === undefined) input.tipoEvento = "Presencial";
  input.enlacesVirtuales =
    input.tipoEvento === "Presencial"
      ? []
      : cleanList(input.enlacesVirtuales, "enlacesVirtuales", "link", report);
  const base = validateObject(EventSchema.in, input, report);
  if (!base.ok) return base;
  // The rest of the form's rules, on the fields as validated (parsing them again would see the
  // cupo already turned into a number).
  const full = EventSchema.out.safeParse(base.data);
  if (!full.success) {
    return {
      ok: false,
      reasons: full.error.issues.map((i) => `${String(i.path[0] ?? "")}: ${i.message}`),
      details: [],
    };
  }
  const gallery: string[] = [];
  const images = fields.galleryImages;
  if (images !== undefined && images !== null) {
    if (!Array.isArray(images))
      report("galleryImages", "debe ser una lista de URLs", valueDetail(images));
    else
      images.forEach((url, index) => {
        const parsed = GalleryImageSchema.shape.url.safeParse([url]);
        if (parsed.success) gallery.push(...parsed.data);
        else
          report(
            `galleryImages[${index}]`,
            parsed.error.issues[0]?.message ?? "URL no válida",
            valueDetail(url),
          );
      });
  }
  return {
    ok: true,
    value: {
      input: full.data,
      gallery,
      createdAt: readTime(fields, "createdAt", report, { fallback: now })!,
      updatedAt: readTime(fields, "updatedAt", report, { fallback: null, missingIsNormal: true }),
      publishedByUid: uidOf(fields.publishedBy),
      publishedByName: optionalString(
        fields.publishedByName,
        "publishedByName",
        DISPLAY_NAME_MAX,
        report,
      ),
    },
  };
}

// ——— notas, recursos, proyectos ———

const CONTENT = {
  notas: { schema: NoteSchema, lists: { enlacesAdicionales: "link" }, hasUpdatedAt: false },
  recursos: {
    schema: ResourceSchema,
    lists: { enlacesImagenes: "link", enlacesVideos: "youtube", enlacesWeb: "link" },
    hasUpdatedAt: true,
  },
  proyectos: {
    schema: ProjectSchema,
    lists: {
      enlacesVideo: "youtube",
      enlacesImagen: "link",
      enlacesWeb: "link",
      enlacesDocumentacion: "link",
    },
    hasUpdatedAt: true,
  },
} as const;

export type PublicationCollection = keyof typeof CONTENT;
export const PUBLICATION_COLLECTIONS = Object.keys(CONTENT) as PublicationCollection[];

export interface MappedPublications<C extends PublicationCollection> {
  input: z.output<(typeof CONTENT)[C]["schema"]>;
  createdAt: Date;
  updatedAt: Date | null;
  publisherUid: string | null;
  publisherName: string | null;
}

export function mapPublications<C extends PublicationCollection>(
  collection: C,
  fields: Record<string, unknown>,
  now: Date,
  report: Reporter,
): { ok: true; value: MappedPublications<C> } | Refusal {
  const { schema, lists, hasUpdatedAt } = CONTENT[collection];
  const formFields = Object.keys(schema.shape);
  reportUnknown(
    fields,
    [
      ...formFields,
      "createdAt",
      "publisher",
      "publisherName",
      "id",
      ...(hasUpdatedAt ? ["updatedAt"] : []),
    ],
    report,
  );
  const input = pick(fields, formFields);
  for (const [field, kind] of Object.entries(lists) as [string, keyof typeof listItemCheck][]) {
    input[field] = cleanList(input[field], field, kind, report);
  }
  const parsed = validateObject(schema as unknown as ObjectSchema, input, report);
  if (!parsed.ok) return parsed;
  return {
    ok: true,
    value: {
      input: parsed.data as z.output<(typeof CONTENT)[C]["schema"]>,
      createdAt: readTime(fields, "createdAt", report, { fallback: now })!,
      updatedAt: hasUpdatedAt
        ? readTime(fields, "updatedAt", report, { fallback: null, missingIsNormal: true })
        : null,
      publisherUid: uidOf(fields.publisher),
      publisherName: optionalString(
        fields.publisherName,
        "publisherName",
        DISPLAY_NAME_MAX,
        report,
      ),
    },
  };
}
