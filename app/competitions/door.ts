// The door of a competition (docs/decisions/055-door-and-inspection.md): the words, limits and
// messages the inspection screen, the team's page and the server share. No server code here.

export const INSPECTION_LIMITS = { notesMax: 500 } as const;

export const INSPECTION_RESULTS = {
  passed: "Aprobado",
  failed: "No aprobado",
} as const;
export type InspectionResult = keyof typeof INSPECTION_RESULTS;

export const INSPECTION_MESSAGES = {
  teamNotFound: "Equipo no encontrado en esta competencia.",
  notApproved: "Solo se inspecciona el robot de un equipo aprobado por la organización.",
  started: "Esta categoría ya empezó: no se registran más inspecciones de sus robots.",
  result: "Elige si el robot pasó o no pasó la inspección.",
  notesMissing: "Escribe qué debe corregir el equipo para volver a la inspección.",
  notesTooLong: `Las notas pueden tener como máximo ${INSPECTION_LIMITS.notesMax} caracteres.`,
  malformed: "El formulario llegó incompleto o repetido. Vuelve a cargar la página.",
} as const;

/** A team's state at the door, as its own page shows it to its members. */
export interface TeamAtDoor {
  /** Members (and the coach where the category needs one) checked in, of how many. */
  checkedIn: number;
  expected: number;
  teamCheckedIn: boolean;
  inspection: { result: InspectionResult; notes: string; at: string } | null;
  competes: boolean;
}

/** 'Robot aprobado', 'Robot no aprobado', 'Robot sin inspeccionar'. */
export function inspectionLabel(result: InspectionResult | null): string {
  if (result === "passed") return "Robot aprobado";
  if (result === "failed") return "Robot no aprobado";
  return "Robot sin inspeccionar";
}
