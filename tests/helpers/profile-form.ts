// The profile form (§2 Additional data, and the profile's edit view): a valid submission, the bad
// ones both screens must refuse, and how to read the answer's HTML.
import { eq } from "drizzle-orm";
import { users, type User } from "~/db/schema.server";
import type { Db } from "~/db/client.server";

export const VALID_PROFILE = {
  nombreCompleto: "Ana Quispe Mamani",
  fechaNacimiento: "1990-05-17",
  pais: "Bolivia",
  ciudad: "La Paz",
  genero: "Femenino",
  habilidades: "Robótica y Arduino",
} as const;

export type ProfileFieldName = keyof typeof VALID_PROFILE;

export const REQUIRED_FIELDS = [
  { field: "nombreCompleto", message: "Escribe tu nombre completo." },
  { field: "fechaNacimiento", message: "Escribe tu fecha de nacimiento." },
  { field: "pais", message: "Escribe tu país." },
  { field: "ciudad", message: "Escribe tu ciudad." },
  { field: "genero", message: "Selecciona un género de la lista." },
] as const;

const NOT_A_DATE = "La fecha de nacimiento no es una fecha válida.";
const nextYear = () => `${new Date().getUTCFullYear() + 1}-01-15`;

export interface BadInput {
  /** Reads as the end of a sentence: "refuses …". */
  title: string;
  form: () => URLSearchParams;
  field: ProfileFieldName;
  message: string;
}

function valid(
  overrides: Partial<Record<ProfileFieldName, string>> = {},
  without?: ProfileFieldName,
): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...VALID_PROFILE, ...overrides })) {
    if (key !== without) form.append(key, value);
  }
  return form;
}

/** Each bad submission, the field it is about and the Spanish message shown next to that field. */
export const BAD_INPUTS: BadInput[] = [
  ...REQUIRED_FIELDS.map(({ field, message }) => ({
    title: `a form without ${field}`,
    form: () => valid({}, field),
    field,
    message,
  })),
  ...REQUIRED_FIELDS.map(({ field, message }) => ({
    title: `${field} made only of spaces`,
    form: () => valid({ [field]: "   \t " }),
    field,
    message,
  })),
  {
    title: "genero left at 'Selecciona...'",
    form: () => valid({ genero: "" }),
    field: "genero",
    message: "Selecciona un género de la lista.",
  },
  {
    title: "a genero outside the list",
    form: () => valid({ genero: "Robot" }),
    field: "genero",
    message: "Selecciona un género de la lista.",
  },
  {
    title: "habilidades of 31 characters",
    form: () => valid({ habilidades: "a".repeat(31) }),
    field: "habilidades",
    message: "Las habilidades pueden tener como máximo 30 caracteres.",
  },
  {
    title: "the birth date 'hola'",
    form: () => valid({ fechaNacimiento: "hola" }),
    field: "fechaNacimiento",
    message: NOT_A_DATE,
  },
  {
    title: "the birth date 2025-02-30",
    form: () => valid({ fechaNacimiento: "2025-02-30" }),
    field: "fechaNacimiento",
    message: NOT_A_DATE,
  },
  {
    title: "the birth date 1990/05/17",
    form: () => valid({ fechaNacimiento: "1990/05/17" }),
    field: "fechaNacimiento",
    message: NOT_A_DATE,
  },
  {
    title: "a birth date in the future",
    form: () => valid({ fechaNacimiento: nextYear() }),
    field: "fechaNacimiento",
    message: "La fecha de nacimiento no puede estar en el futuro.",
  },
  {
    title: "a nombreCompleto of 101 characters",
    form: () => valid({ nombreCompleto: "N".repeat(101) }),
    field: "nombreCompleto",
    message: "Máximo 100 caracteres.",
  },
  {
    title: "nombreCompleto sent twice",
    form: () => {
      const form = valid();
      form.append("nombreCompleto", "Otra Persona");
      return form;
    },
    field: "nombreCompleto",
    message: "Este campo tiene un valor no válido.",
  },
];

/** The message shown next to `field` (its error paragraph), or null. */
export function fieldErrorOf(html: string, field: string): string | null {
  const match = new RegExp(`<p class="field-error" id="profile-${field}-error">([^<]*)</p>`).exec(
    html,
  );
  return match ? match[1]! : null;
}

/** Every field error paragraph on the page. */
export function fieldErrorsIn(html: string): string[] {
  return [...html.matchAll(/<p class="field-error" id="profile-(\w+)-error">/g)].map((m) => m[1]!);
}

/** The input or select element named `field`, as rendered. */
export function controlOf(html: string, field: string): string | null {
  return new RegExp(`<(?:input|select)[^>]*\\bname="${field}"[^>]*>`).exec(html)?.[0] ?? null;
}

/** The messages of the alert dialogs rendered on the page. */
export function alertsIn(html: string): string[] {
  return [...html.matchAll(/<p class="dialog-message">([^<]*)<\/p>/g)].map((m) => m[1]!);
}

/** Text as React writes it into HTML. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#x27;");
}

export async function userRow(db: Db, id: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`No existe el usuario ${id}`);
  return row;
}

export async function userRowByEmail(db: Db, email: string): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`No existe el usuario ${email}`);
  return row;
}
