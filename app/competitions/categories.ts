// A competition's categories (docs/decisions/051-competitions-and-categories.md): the words, limits
// and messages the editor, the event's page and the server share. No server code here.
import { formatBs, PRICE_MAX_CENTS } from "~/payments/money";
import type { PublicTeam } from "./teams";

export const LEVELS = {
  primaria: "Primaria",
  secundaria: "Secundaria",
  universidad: "Universidad",
  abierta: "Abierta",
} as const;
export type Level = keyof typeof LEVELS;

export const FORMATS = {
  tiempo: "Contra reloj",
  llaves: "Llaves (eliminatorias)",
  puntaje: "Hoja de puntaje",
} as const;
export type Format = keyof typeof FORMATS;

/** Levels whose competitors are minors: an adult coach is required unless the form says not. */
export const COACH_BY_DEFAULT: readonly Level[] = ["primaria", "secundaria"];

export const CATEGORY_LIMITS = {
  nameMax: 100,
  rulesMax: 5000,
  membersMax: 10,
  weightMax: 1_000_000,
  sizeMax: 1000,
  capacityMax: 100_000,
  perEvent: 40,
} as const;

export const CATEGORY_MESSAGES = {
  notFound: "Categoría no encontrada.",
  nameMissing: "Escribe el nombre de la categoría.",
  nameTooLong: `El nombre puede tener como máximo ${CATEGORY_LIMITS.nameMax} caracteres.`,
  nameTaken: "El evento ya tiene una categoría con ese nombre.",
  level: "Elige el nivel: primaria, secundaria, universidad o abierta.",
  format: "Elige cómo se juzga: contra reloj, llaves o hoja de puntaje.",
  formatLocked:
    "Esta categoría ya tiene resultados (o es final): no se puede cambiar cómo se juzga.",
  members: `Escribe un número entero de integrantes entre 1 y ${CATEGORY_LIMITS.membersMax}.`,
  minOverMax: "El mínimo de integrantes no puede ser mayor que el máximo.",
  coach: "Elige si la categoría requiere un entrenador adulto.",
  rulesTooLong: `Las reglas del robot pueden tener como máximo ${CATEGORY_LIMITS.rulesMax} caracteres.`,
  weight: `Escribe el peso máximo en gramos, un número entero entre 1 y ${CATEGORY_LIMITS.weightMax.toLocaleString("es-BO")}, o déjalo vacío.`,
  size: `Escribe el tamaño máximo en centímetros, un número entero entre 1 y ${CATEGORY_LIMITS.sizeMax}, o déjalo vacío.`,
  capacity: `Escribe el cupo en equipos, un número entero entre 1 y ${CATEGORY_LIMITS.capacityMax.toLocaleString("es-BO")}, o déjalo vacío si no tiene límite.`,
  fee: "Escribe la cuota por equipo en bolivianos, como 30 o 30,50 (con dos decimales como mucho), o déjala vacía si es gratis.",
  feeTooHigh: `La cuota puede ser como máximo ${formatBs(PRICE_MAX_CENTS)}.`,
  deadlineDate: "Escribe la fecha de cierre de inscripciones (AAAA-MM-DD).",
  deadlineTime: "Escribe la hora de cierre de inscripciones (HH:MM).",
  startDate:
    "Escribe la fecha en que empieza la categoría (AAAA-MM-DD), o deja vacíos la fecha y la hora para usar el inicio del evento.",
  startTime: "Escribe la hora en que empieza la categoría (HH:MM).",
  tooMany: `Un evento puede tener como máximo ${CATEGORY_LIMITS.perEvent} categorías.`,
  move: "Elige subir o bajar la categoría.",
} as const;

/** The fields of the category form, as typed (and shown again when refused). */
export interface CategoryFormValues {
  nombre: string;
  nivel: string;
  minimo: string;
  maximo: string;
  /** "si", "no", or "" for the level's default. */
  entrenador: string;
  reglas: string;
  peso: string;
  tamano: string;
  cupo: string;
  cuota: string;
  fechaCierre: string;
  horaCierre: string;
  /** When the category starts (decision 055): both blank for the event's start. */
  fechaInicio: string;
  horaInicio: string;
  formato: string;
}

export const CATEGORY_FIELDS: readonly (keyof CategoryFormValues)[] = [
  "nombre",
  "nivel",
  "minimo",
  "maximo",
  "entrenador",
  "reglas",
  "peso",
  "tamano",
  "cupo",
  "cuota",
  "fechaCierre",
  "horaCierre",
  "fechaInicio",
  "horaInicio",
  "formato",
];

export const EMPTY_CATEGORY: CategoryFormValues = {
  nombre: "",
  nivel: "",
  minimo: "2",
  maximo: "3",
  entrenador: "",
  reglas: "",
  peso: "",
  tamano: "",
  cupo: "",
  cuota: "",
  fechaCierre: "",
  horaCierre: "23:59",
  fechaInicio: "",
  horaInicio: "",
  formato: "",
};

/** A category as the public page shows it (from the loader: plain data). */
export interface PublicCategory {
  id: string;
  name: string;
  level: Level;
  minMembers: number;
  maxMembers: number;
  coachRequired: boolean;
  robotRules: string;
  maxWeightGrams: number | null;
  maxSizeCm: number | null;
  capacity: number | null;
  feeCents: number;
  registrationClosesAt: string;
  format: Format;
  placesLeft: number | null;
  /** Its live teams (decision 052), competitors named as 'Ana Q.'. */
  teams: PublicTeam[];
  /** The teams on its waiting list, first registered first (decision 056). */
  waiting: PublicTeam[];
  /** Whether its registration has closed (when the page was made). */
  closed: boolean;
}

/** 'De 2 a 3 integrantes', 'Un integrante', '3 integrantes'. */
export function teamSizeLabel(min: number, max: number): string {
  if (min === max) return min === 1 ? "Un integrante" : `${min} integrantes`;
  return `De ${min} a ${max} integrantes`;
}

/** The anchor of a category on its event's page. */
export function categoryAnchor(id: string): string {
  return `categoria-${id}`;
}
