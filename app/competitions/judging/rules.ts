// How each judging format breaks ties (decision 053): a few named rules an organiser picks for a
// category, with the words the results page shows. Shared by the server and the screens.
import type { Format } from "../categories";

export interface TieRule {
  label: string;
  /** What the results page says, under the table. */
  explain: string;
}

export const TIE_RULES = {
  tiempo: {
    "segundo-tiempo": {
      label: "Segundo mejor tiempo",
      explain:
        "Si dos equipos empatan en su mejor tiempo, queda antes el de mejor segundo tiempo (y así con los siguientes); si siguen empatados, comparten el puesto.",
    },
    "menos-penalizaciones": {
      label: "Menos penalizaciones",
      explain:
        "Si dos equipos empatan en su mejor tiempo, queda antes el que tuvo menos penalizaciones en esa vuelta; si siguen empatados, comparten el puesto.",
    },
    compartido: {
      label: "Puesto compartido",
      explain: "Si dos equipos empatan en su mejor tiempo, comparten el puesto.",
    },
  },
  llaves: {
    "tercer-puesto": {
      label: "Partido por el tercer puesto",
      explain:
        "Los perdedores de las semifinales juegan un partido por el tercer puesto. Cada partido se gana al mejor de tres rondas.",
    },
    "tercero-compartido": {
      label: "Tercer puesto compartido",
      explain:
        "Los perdedores de las semifinales comparten el tercer puesto. Cada partido se gana al mejor de tres rondas.",
    },
  },
  puntaje: {
    "primer-criterio": {
      label: "Primer criterio",
      explain:
        "Si dos equipos empatan en su promedio, queda antes el de mejor promedio en el primer criterio (y así con los siguientes); si siguen empatados, comparten el puesto.",
    },
    "mejor-nota": {
      label: "Mejor nota de un juez",
      explain:
        "Si dos equipos empatan en su promedio, queda antes el que recibió la nota total más alta de un juez; si siguen empatados, comparten el puesto.",
    },
    compartido: {
      label: "Puesto compartido",
      explain: "Si dos equipos empatan en su promedio, comparten el puesto.",
    },
  },
} as const satisfies Record<Format, Record<string, TieRule>>;

export type TieRuleOf<F extends Format> = keyof (typeof TIE_RULES)[F];

/** The rule a new category starts with. */
export const DEFAULT_TIE_RULE: { [F in Format]: TieRuleOf<F> } = {
  tiempo: "segundo-tiempo",
  llaves: "tercer-puesto",
  puntaje: "primer-criterio",
};

export function isTieRule<F extends Format>(format: F, value: unknown): value is TieRuleOf<F> {
  return typeof value === "string" && Object.hasOwn(TIE_RULES[format], value);
}
