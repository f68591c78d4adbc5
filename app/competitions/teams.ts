// Teams of a competition (docs/decisions/052-teams.md): the words, limits and messages the pages
// and the server share, and how a competitor is named in public. No server code here.

export const TEAM_LIMITS = {
  nameMax: 60,
  cityMax: 60,
  robotNameMax: 60,
  schoolMax: 120,
  reasonMax: 500,
} as const;

/** The team form as typed. */
export interface TeamFormValues {
  nombre: string;
  colegio: string;
  ciudad: string;
  robot: string;
}
export const TEAM_FIELDS: readonly (keyof TeamFormValues)[] = [
  "nombre",
  "colegio",
  "ciudad",
  "robot",
];

export const TEAM_STATUS = {
  waiting: "En lista de espera",
  pending: "Pendiente de aprobación",
  approved: "Aprobado",
  rejected: "Rechazado",
  withdrawn: "Retirado",
} as const;
export type TeamStatus = keyof typeof TEAM_STATUS;

/** What the coach confirms (decision 052): their confirmation stands for the adults' consent. */
export const COACH_CONSENT =
  "Confirmo que soy mayor de edad y entrenador de este equipo. En primaria y secundaria los integrantes son menores de edad: con esta confirmación doy el consentimiento de un adulto responsable para su inscripción y acompaño al equipo durante la competencia.";

export const TEAM_MESSAGES = {
  categoryNotFound: "Categoría no encontrada.",
  teamNotFound: "Equipo no encontrado.",
  signIn: "Inicia sesión para inscribir o unirte a un equipo.",
  nameMissing: "Escribe el nombre del equipo.",
  nameTooLong: `El nombre del equipo puede tener como máximo ${TEAM_LIMITS.nameMax} caracteres.`,
  nameTaken: "Ya hay un equipo con ese nombre en esta categoría.",
  schoolMissing: "Escribe el colegio o la universidad.",
  schoolTooLong: `El colegio o la universidad puede tener como máximo ${TEAM_LIMITS.schoolMax} caracteres.`,
  cityMissing: "Escribe la ciudad.",
  cityTooLong: `La ciudad puede tener como máximo ${TEAM_LIMITS.cityMax} caracteres.`,
  robotMissing: "Escribe el nombre del robot.",
  robotTooLong: `El nombre del robot puede tener como máximo ${TEAM_LIMITS.robotNameMax} caracteres.`,
  malformed: "El formulario llegó incompleto o repetido. Vuelve a cargar la página.",
  noCoach: "Este equipo no tiene entrenador.",
  seenMissing:
    "El formulario no dice en qué estado viste al equipo. Vuelve a cargar la página y decide de nuevo.",
  approveNeedsCoach:
    "Este equipo aún no tiene la confirmación de su entrenador adulto, que su categoría exige: no se puede aprobar todavía.",
  closed: "Las inscripciones de esta categoría ya cerraron.",
  full: "La categoría ya no tiene lugares para más equipos.",
  waitingNotApproved:
    "Este equipo está en la lista de espera: se puede aprobar cuando se libere un lugar y lo tome.",
  alreadyInCategory:
    "Ya eres parte de un equipo en esta categoría: una persona puede estar en un solo equipo por categoría.",
  onlyCaptain: "Solo el capitán del equipo puede hacer esto.",
  teamClosed: "Este equipo fue retirado o rechazado: ya no se puede cambiar.",
  invitationInvalid: "La invitación no existe o ya no vale. Pide al capitán un enlace nuevo.",
  alreadyMember: "Ya eres parte de este equipo.",
  teamFull: "El equipo ya tiene el máximo de integrantes de su categoría.",
  coachIsMember: "Un integrante del equipo no puede ser también su entrenador.",
  memberIsCoach: "Eres el entrenador de este equipo: no puedes ser también integrante.",
  coachTaken: "Este equipo ya tiene un entrenador.",
  coachNoBirthDate:
    "Para ser entrenador, agrega tu fecha de nacimiento en tu perfil: un entrenador debe ser mayor de edad.",
  coachMinor: "Un entrenador debe ser mayor de edad (18 años o más).",
  coachConsent: "Marca la confirmación del entrenador para continuar.",
  notMember: "No eres parte de este equipo.",
  captainCannotLeave: "El capitán no puede salir del equipo: puede retirarlo.",
  memberNotFound: "Esa persona no es parte del equipo.",
  decision: "Elige aprobar o rechazar el equipo.",
  reasonMissing: "Escribe el motivo del rechazo.",
  reasonTooLong: `El motivo puede tener como máximo ${TEAM_LIMITS.reasonMax} caracteres.`,
  photoOne: "Elige una sola foto del robot.",
  schoolNotFound: "Colegio o universidad no encontrado.",
  mergeSame: "Elige dos colegios o universidades distintos para unir.",
  categoryHasTeams:
    "Esta categoría tiene equipos inscritos (aunque se hayan retirado o rechazado) y no se puede eliminar. Puedes cambiarla en lugar de eliminarla.",
} as const;

/**
 * How a competitor is named on public pages: the first name and the initial of the first surname
 * ("Ana Quispe Mamani" → "Ana Q."). Bolivians write two surnames, the father's first: from three
 * words on, the initial is the second-to-last word's ("Ana María Quispe Mamani" → "Ana Q."); a
 * name of two words takes the last's.
 */
export function publicName(fullName: string | null | undefined): string {
  const words = (fullName ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "Integrante";
  const first = words[0]!;
  const surname = words.length >= 3 ? words[words.length - 2]! : words[1];
  return surname ? `${first} ${[...surname][0]!.toUpperCase()}.` : first;
}

/** A team's invitation code written in two groups of eight, for reading aloud. */
export function formatInvitationCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12)}`;
}

/** A typed code back to its stored form: capitals, no spaces or dashes, O/I/L read as 0/1/1. */
export function normaliseInvitationCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
}

export const INVITATION_CODE = /^[0-9A-HJKMNP-TV-Z]{16}$/;

/** A team on the event's page: nothing but what anyone may read. */
export interface PublicTeam {
  id: string;
  name: string;
  school: string;
  city: string;
  robotName: string;
  members: string[];
  status: TeamStatus;
}

/** A decision over a team whose state changed since the organiser's screen showed it. */
export function teamChangedMeanwhile(status: TeamStatus): string {
  return `Otra persona cambió este equipo mientras lo mirabas: ahora está «${TEAM_STATUS[status]}». Tu decisión no se aplicó; revisa y decide de nuevo si hace falta.`;
}
