// The button of an event's page (§4): 'Participar', 'Unirse a la lista de espera', 'Dejar de
// Participar', 'Salir de la lista de espera', 'Inicia Sesión para Participar' or, once the event
// has ended, 'Evento Finalizado', disabled. A member checked in at the door of an event in
// progress sees 'Asistencia registrada' instead of a way to leave. Leaving is drawn as a quiet link
// (the page puts it last). Each is a plain form, so it works without JavaScript. On a competition
// (decision 077) taking part this way is a seat in the audience, and the button says so: 'Asistir
// como público', drawn secondary, after the team's registration.
import { Form, Link, useNavigation } from "react-router";

/** 'Quedan N plazas', 'Queda 1 plaza' or 'Cupo completo'. */
export function seatsText(left: number): string {
  if (left === 0) return "Cupo completo";
  return left === 1 ? "Queda 1 plaza" : `Quedan ${left} plazas`;
}

export function ParticipationButton({
  ended,
  signedIn,
  participating,
  attended = false,
  waiting,
  full,
  eventId,
  audience = false,
}: {
  /** A competition's page: the button is a spectator's seat, not a team's registration. */
  audience?: boolean;
  ended: boolean;
  signedIn: boolean;
  participating: boolean;
  /** Checked in at the door: may no longer leave (decision 030). */
  attended?: boolean;
  waiting: number | null;
  full: boolean;
  eventId: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // §4: once an event has ended the button reads 'Evento Finalizado' and is disabled, for everyone;
  // drawn quiet, a state rather than an action, after the certificate when there is one.
  if (ended) {
    return (
      <button type="button" className="button button-ghost" disabled>
        Evento Finalizado
      </button>
    );
  }
  if (!signedIn) {
    return (
      <Link
        className={audience ? "button button-secondary" : "button"}
        to={`/login?redirectTo=${encodeURIComponent(`/detalles/${eventId}`)}`}
      >
        {audience ? "Inicia Sesión para asistir como público" : "Inicia Sesión para Participar"}
      </Link>
    );
  }
  if (participating && attended) {
    return (
      <button type="button" className="button button-ghost" disabled>
        Asistencia registrada
      </button>
    );
  }
  const [intent, label, style] = participating
    ? ["leave", audience ? "Dejar de asistir como público" : "Dejar de Participar", "link-button"]
    : waiting !== null
      ? ["leaveWaitlist", "Salir de la lista de espera", "button button-ghost"]
      : [
          "join",
          full ? "Unirse a la lista de espera" : audience ? "Asistir como público" : "Participar",
          audience ? "button button-secondary" : "button",
        ];
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <button type="submit" className={style} disabled={busy}>
        {label}
      </button>
    </Form>
  );
}
