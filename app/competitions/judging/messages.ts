// What judges read when an entry is refused (issue 39). The server and the judge's screen share them.
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
} as const;
