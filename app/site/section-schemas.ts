// The schemas of the landing sections (docs/decisions/023-site-content.md), built from the section
// specs of site-content.ts: one for what is stored (checked again by the model before writing,
// and when reading), one for the form that edits a section.
import { z } from "zod";
import { linkListField } from "~/kernel/fields";
import {
  fieldValueOk,
  rowFieldName,
  rowsFromValues,
  sectionSpec,
  type SiteFieldKind,
  type SiteFieldSpec,
} from "./section-fields";
import type { SiteSections, SiteSectionKey } from "./sections";

const NOT_TEXT = "Este campo tiene un valor no válido.";

const INVALID: Record<SiteFieldKind, (label: string) => string> = {
  text: () => NOT_TEXT,
  textarea: () => NOT_TEXT,
  url: (label) => `«${label}» debe ser una dirección que empiece con https:// (o http://).`,
  link: (label) =>
    `«${label}» debe ser una dirección https:// o una página de este sitio que empiece con /.`,
  image: (label) =>
    `«${label}» debe ser la dirección https:// de una imagen, o un archivo de este sitio que empiece con /.`,
  date: (label) => `«${label}» no es una fecha válida (AAAA-MM-DD).`,
  event: (label) => `«${label}» debe ser uno de los eventos de la lista.`,
};

/** One field: trimmed text, within its limit, of its kind; blank allowed unless required. */
function fieldSchema(field: SiteFieldSpec) {
  return z
    .string({ error: NOT_TEXT })
    .trim()
    .max(field.max, `«${field.label}» puede tener como máximo ${field.max} caracteres.`)
    .refine((v) => !field.required || v !== "", `«${field.label}» es obligatorio.`)
    .refine((v) => v === "" || fieldValueOk(field.kind, v), INVALID[field.kind](field.label));
}

function rowSchema(fields: SiteFieldSpec[]) {
  // A row's event (a course card's registration, decision 048) is optional in what is stored:
  // rows saved before the field existed have none, and read as none.
  return z.strictObject(
    Object.fromEntries(
      fields.map((f) => [f.name, f.kind === "event" ? fieldSchema(f).default("") : fieldSchema(f)]),
    ),
  );
}

const schemas = new Map<SiteSectionKey, z.ZodType>();

/** What a section's row holds; the model checks it before every write and after every read. */
export function siteSectionSchema<K extends SiteSectionKey>(key: K): z.ZodType<SiteSections[K]> {
  let schema = schemas.get(key);
  if (!schema) {
    const spec = sectionSpec(key);
    const shape: Record<string, z.ZodType> = {};
    for (const field of spec.fields) shape[field.name] = fieldSchema(field);
    for (const list of spec.lists)
      shape[list.name] = z
        .array(rowSchema(list.fields))
        .max(list.max, `Como máximo ${list.max} filas en «${list.legend}».`);
    if (spec.links) shape[spec.links.name] = linkListField({ max: spec.links.max });
    schema = z.strictObject(shape);
    schemas.set(key, schema);
  }
  return schema as z.ZodType<SiteSections[K]>;
}

/** The repeated fields of a section's form (its rows, its links), for parseForm's listFields. */
export function siteFormListFields(key: SiteSectionKey): string[] {
  const spec = sectionSpec(key);
  return [
    ...spec.lists.flatMap((list) => list.fields.map((f) => rowFieldName(list.name, f.name))),
    ...(spec.links ? [spec.links.name] : []),
  ];
}

/**
 * A section's form as posted: every field, each list as one repeated input per column. Rows left
 * blank are dropped; an error in a row is reported at `<list>.<row>.<field>`, the row's place in
 * the form, and every field's error is reported at once.
 */
export function siteFormSchema<K extends SiteSectionKey>(key: K) {
  const spec = sectionSpec(key);
  const shape: Record<string, z.ZodType> = {};
  for (const field of spec.fields) shape[field.name] = z.string({ error: NOT_TEXT });
  for (const name of siteFormListFields(key))
    shape[name] = z.array(z.string({ error: NOT_TEXT })).default([]);
  return z.strictObject(shape).transform((values, ctx): SiteSections[K] => {
    const out: Record<string, unknown> = {};
    let failed = false;
    const fail = (path: (string | number)[], message: string) => {
      failed = true;
      ctx.addIssue({ code: "custom", path, message });
    };
    for (const field of spec.fields) {
      const parsed = fieldSchema(field).safeParse(values[field.name]);
      if (parsed.success) out[field.name] = parsed.data;
      else fail([field.name], parsed.error.issues[0]!.message);
    }
    for (const list of spec.lists) {
      const lengths = new Set(
        list.fields.map((f) => (values[rowFieldName(list.name, f.name)] as string[]).length),
      );
      if (lengths.size > 1) {
        fail(
          [list.name],
          `Las filas de «${list.legend}» llegaron incompletas. Vuelve a cargar la página.`,
        );
        continue;
      }
      const rows: Record<string, string>[] = [];
      rowsFromValues(values, list).forEach((row, index) => {
        if (list.fields.every((f) => row[f.name]!.trim() === "")) return;
        const kept: Record<string, string> = {};
        for (const field of list.fields) {
          const parsed = fieldSchema(field).safeParse(row[field.name]);
          if (parsed.success) kept[field.name] = parsed.data;
          else fail([list.name, index, field.name], parsed.error.issues[0]!.message);
        }
        rows.push(kept);
      });
      if (rows.length > list.max)
        fail([list.name], `Como máximo ${list.max} filas en «${list.legend}».`);
      out[list.name] = rows;
    }
    if (spec.links) {
      const parsed = linkListField({ max: spec.links.max }).safeParse(values[spec.links.name]);
      if (parsed.success) out[spec.links.name] = parsed.data;
      else fail([spec.links.name], parsed.error.issues[0]!.message);
    }
    return failed ? z.NEVER : (out as SiteSections[K]);
  });
}
