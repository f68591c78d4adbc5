// What judges read when an entry is refused (decision 053). The server and the judge's screen
// share them.
import { RUN_LIMITS } from "./time-trial";

export const JUDGING_MESSAGES = {
  timeOutOfRange: `El tiempo debe estar entre 0,001 s y ${RUN_LIMITS.timeMaxMs / 60_000} minutos.`,
  penaltyOutOfRange: `Las penalizaciones deben estar entre 0 y ${RUN_LIMITS.penaltyMaxMs / 60_000} minutos.`,
  attemptOutOfRange: "Esa vuelta no existe: la categoría cuenta menos vueltas.",
  teamNotInCategory: "Ese equipo no compite en esta categoría.",
  bracketTooSmall: "Las llaves necesitan al menos dos equipos.",
  seedsNotTeams: "El orden de las llaves debe nombrar a cada equipo una sola vez.",
  matchNotFound: "Ese partido no existe en las llaves.",
  matchNotDue: "Ese partido todavía no se juega: falta saber quién llega a él.",
  matchIsBye: "Ese equipo pasa sin rival: no hay rondas que anotar.",
  matchDecided: "Ese partido ya tiene ganador.",
  winnerNotInMatch: "El ganador de la ronda debe ser uno de los dos equipos del partido.",
  criterionMissing: "Anota un puntaje para cada criterio.",
  scoreOutOfRange: "Cada puntaje debe estar entre 0 y el máximo del criterio.",
  criteriaInvalid:
    "La hoja de puntaje necesita entre 1 y 20 criterios, cada uno con nombre y un máximo entre 1 y 1000.",
  // Stored entries (decision 057).
  categoryNotFound: "Categoría no encontrada.",
  wrongFormat: "Esta categoría no se juzga de esa forma.",
  final:
    "Los resultados de esta categoría ya son finales: la organización debe reabrirla para anotar o corregir.",
  alreadyFinal: "La categoría ya está marcada como final.",
  notFinal: "La categoría no está marcada como final.",
  finalSeenMissing:
    "El formulario no dice qué resultados finales veías. Vuelve a cargar la página y hazlo de nuevo.",
  entryMalformed: "Faltan datos de la anotación o no son válidos.",
  entryIdInvalid: "El identificador de la anotación no es válido.",
  entryIdMissing:
    "Falta el identificador de la anotación: vuelve a cargar la página y anótala de nuevo.",
  entryIdReused: "Esa anotación ya se recibió con otros datos.",
  roundNotDue: "Anota antes las rondas anteriores de este partido.",
  noDraw: "Las llaves todavía no están armadas: la organización debe sortearlas o sembrarlas.",
  drawLocked: "Las llaves ya tienen rondas anotadas: no se pueden armar de nuevo.",
  conflictNotFound: "Esa anotación en conflicto no existe o ya se resolvió.",
  decision: "Elige aceptar la segunda anotación o mantener la primera.",
  judgeNotOwn: "Un jurado solo anota su propia hoja de puntaje.",
  sheetNotFound: "Ese jurado no tiene una hoja de puntaje para ese equipo.",
  criteriaLocked: "La categoría ya tiene hojas de puntaje: sus criterios no se pueden cambiar.",
  noCriteria: "La categoría todavía no tiene criterios de puntaje.",
  tieRuleInvalid: "Elige una regla de desempate de la lista.",
  // Certificates by place (decision 060).
  awardNotFinal:
    "Los certificados de la categoría estarán disponibles cuando sus resultados sean finales.",
  awardNotCompetitor:
    "No tienes certificado en esta categoría: no eres integrante de un equipo con puesto en ella.",
  awardLoginRequired: "Debes iniciar sesión para descargar tu certificado de la competencia.",
  awardNotOwn: "Solo puedes descargar tu propio certificado.",
  awardNobody: "Esa persona no tiene certificado en esta categoría.",
  finalWithConflicts:
    "Quedan anotaciones en conflicto: decídelas antes de marcar los resultados como finales.",
  finalBracketUnfinished:
    "Las llaves no terminaron: falta el ganador de la final o del partido por el tercer puesto.",
  attemptsInvalid: "Escribe cuántas vueltas cuentan, un número entero entre 1 y 10.",
  // The judge's screen (decision 059).
  teamMissing: "Elige el equipo.",
  attemptMissing: "Elige la vuelta.",
  timeMissing: "Escribe el tiempo en segundos o marca «No terminó».",
  timeMalformed: "Escribe el tiempo en segundos, por ejemplo 12,345.",
  penaltyMalformed: "Escribe las penalizaciones en segundos, por ejemplo 2 o 0,5 (vacío: ninguna).",
  pointsMalformed: "Escribe cada puntaje como un número, por ejemplo 8 o 7,5.",
  noTeamsInPlay:
    "Todavía no compite ningún equipo: un equipo compite cuando registró su entrada y su robot pasó la inspección.",
  winnerMissing: "Elige quién ganó la ronda.",
  otherAccount:
    "Esta anotación se hizo con otra cuenta en este teléfono: se enviará cuando esa cuenta vuelva a entrar.",
  outcomeSaved: "Anotado.",
  outcomeSame: "Ya estaba anotado.",
  outcomeConflict:
    "No coincide con lo que ya estaba anotado: queda la primera anotación y la organización decidirá.",
  outcomeCorrected: "Corregido: la anotación anterior quedó reemplazada (queda en la auditoría).",
} as const;

/** 'Reabrir' over a final made again since the screen showed the one before (decision 064). */
export function finalChangedMeanwhile(by: string): string {
  return `Estos resultados se reabrieron y ${by ? `${by} los volvió` : "se volvieron"} a marcar como finales mientras mirabas: no se reabrieron. Revisa la página antes de hacerlo.`;
}
