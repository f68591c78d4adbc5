// The two lists of an event's participants page (/admin/eventos/:id/participantes): who takes
// part, with 'Marcar presente' or 'Quitar asistencia' and, after the event, the certificate; and
// who waits for a seat, in order. An event of several sessions shows, for each member, how many
// they attended with the list folded under it, and the count of each session (decision 044).
import { Fragment } from "react";
import { Form, Link } from "react-router";
import { formatDateTime, formatDateTimeRange, formatShortDateTime } from "~/kernel/time";
import { EmptyState } from "~/ui/item-card";
import { EmailAddress } from "~/ui/email-address";

export interface ParticipantRow {
  userId: string;
  nombre: string;
  email: string;
  ciudad: string | null;
  joinedAt: string;
  checkedInAt: string | null;
  /** The sessions not cancelled they attended. */
  sessionIds: string[];
  /** The sessions they said they will miss (decision 045). */
  skippedIds: string[];
  /** Whether they attended the share of sessions that earns the certificate. */
  reachesShare: boolean;
  /** A competition's teams they are in, as a member or its coach, in words. */
  teams?: { id: string; text: string }[];
}

export interface SessionRow {
  id: string;
  startsAt: string;
  endsAt: string;
  /** Its door has opened: its attendance can be marked by hand. */
  opened: boolean;
}

/** Each session of a course with how many of its participants attended it. */
export function SessionTotals({
  sessions,
  participants,
  timeZone,
}: {
  sessions: SessionRow[];
  participants: ParticipantRow[];
  timeZone: string;
}) {
  if (sessions.length < 2) return null;
  return (
    <section className="card" aria-labelledby="sessions-attendance-title">
      <h2 id="sessions-attendance-title">Asistencia por sesión</h2>
      <ol className="session-totals">
        {sessions.map((s, i) => {
          const count = participants.filter((p) => p.sessionIds.includes(s.id)).length;
          const away = participants.filter(
            (p) => p.skippedIds.includes(s.id) && !p.sessionIds.includes(s.id),
          ).length;
          return (
            <li key={s.id}>
              <span>
                <strong>{`Sesión ${i + 1}`}</strong>{" "}
                <span className="muted">{formatDateTimeRange(s.startsAt, s.endsAt, timeZone)}</span>
                {away > 0 ? (
                  <span className="muted session-away">
                    {away === 1 ? "1 avisó que no vendrá" : `${away} avisaron que no vendrán`}
                  </span>
                ) : null}
              </span>
              <span className="session-total">
                {s.opened ? `${count} de ${participants.length}` : "Aún no empieza"}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * "3/4 sesiones", opening to the list of the sessions with who attended which, and 'Marcar' or
 * 'Quitar' on each session whose door has opened: the organisers' correction (decision 045).
 */
function MemberSessions({
  p,
  sessions,
  busy,
  timeZone,
}: {
  p: ParticipantRow;
  sessions: SessionRow[];
  busy: boolean;
  timeZone: string;
}) {
  return (
    <details className="member-sessions">
      <summary>{`${p.sessionIds.length}/${sessions.length} sesiones`}</summary>
      <ol>
        {sessions.map((s, i) => {
          const came = p.sessionIds.includes(s.id);
          const away = !came && p.skippedIds.includes(s.id);
          const state = came
            ? "asistió"
            : away
              ? "avisó que no vendrá"
              : s.opened
                ? "no asistió"
                : "aún no empieza";
          const label = `Sesión ${i + 1} (${formatShortDateTime(s.startsAt, timeZone)})`;
          return (
            <li key={s.id} className={came ? "attended" : "missed"}>
              <span>
                <span aria-hidden="true">{came ? "✓" : "–"}</span> {`${label}: ${state}`}
              </span>
              {s.opened ? (
                <Form method="post" className="member-session-mark" preventScrollReset>
                  <input type="hidden" name="userId" value={p.userId} />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={came ? "undoCheckInSession" : "checkInSession"}
                    className="button button-ghost button-small"
                    disabled={busy}
                    aria-label={`${came ? "Quitar la asistencia" : "Marcar presente"} de ${p.nombre} en la ${label}`}
                  >
                    {came ? "Quitar" : "Marcar"}
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ol>
    </details>
  );
}

export interface WaitingRow {
  userId: string;
  nombre: string;
  email: string;
  createdAt: string;
}

/** The door as the participants page shows it: 'Marcar presente' follows it (decision 075). */
export interface DoorRow {
  open: boolean;
  /** 'Marcar presente' is offered: the door is open, or one had opened (a correction after it). */
  markable: boolean;
  /** When it is closed: when it opens, or when it closed. */
  message: string | null;
}

export function ParticipantList({
  eventId,
  participants,
  sessions,
  door,
  ended,
  busy,
  timeZone,
}: {
  eventId: string;
  participants: ParticipantRow[];
  sessions: SessionRow[];
  door: DoorRow;
  ended: boolean;
  busy: boolean;
  timeZone: string;
}) {
  return (
    <section className="card" aria-labelledby="participants-title">
      <h2 id="participants-title">
        Participantes <span className="muted">({participants.length})</span>
      </h2>
      {door.message ? (
        <p className="muted" id="door-state">
          {door.markable
            ? `${door.message} 'Marcar presente' corrige la asistencia de la última sesión.`
            : `${door.message} Hasta entonces no se marca a nadie presente.`}
        </p>
      ) : null}
      {participants.length === 0 ? (
        <EmptyState title="Nadie participa en este evento todavía." />
      ) : (
        <ol className="admin-event-list">
          {participants.map((p) => (
            <li key={p.userId}>
              <div>
                <strong>{p.nombre}</strong>
                <span className="user-email">
                  <EmailAddress email={p.email} />
                </span>
                <span className="muted">
                  {p.ciudad ? `${p.ciudad} · ` : ""}Inscrito el{" "}
                  {formatDateTime(p.joinedAt, timeZone)}
                </span>
                {p.teams?.length ? (
                  <span className="participant-teams">
                    {p.teams.length === 1 ? "Equipo: " : "Equipos: "}
                    {p.teams.map((t, i) => (
                      <Fragment key={t.id}>
                        {i > 0 ? "; " : null}
                        <Link to={`/equipos/${t.id}`}>{t.text}</Link>
                      </Fragment>
                    ))}
                  </span>
                ) : null}
                {sessions.length > 1 ? (
                  <MemberSessions p={p} sessions={sessions} busy={busy} timeZone={timeZone} />
                ) : p.checkedInAt ? (
                  <span>Asistió · {formatDateTime(p.checkedInAt, timeZone)}</span>
                ) : null}
              </div>
              <Form method="post" className="row-actions">
                {ended && p.reachesShare ? (
                  <a
                    className="button button-secondary button-small"
                    href={`/admin/eventos/${eventId}/participantes/${p.userId}/certificado.pdf`}
                    download
                    aria-label={`Descargar el certificado de ${p.nombre}`}
                  >
                    Certificado
                  </a>
                ) : null}
                <input type="hidden" name="userId" value={p.userId} />
                {p.checkedInAt ? (
                  <button
                    type="submit"
                    name="intent"
                    value="undoCheckIn"
                    className="button button-ghost button-small"
                    disabled={busy}
                    aria-label={`Quitar la asistencia de ${p.nombre}`}
                  >
                    Quitar asistencia
                  </button>
                ) : door.markable ? (
                  <button
                    type="submit"
                    name="intent"
                    value="checkIn"
                    className="button button-small"
                    disabled={busy}
                    aria-label={`Marcar presente a ${p.nombre}`}
                  >
                    Marcar presente
                  </button>
                ) : null}
              </Form>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

export function WaitingList({ waiting, timeZone }: { waiting: WaitingRow[]; timeZone: string }) {
  return (
    <section className="card" aria-labelledby="waiting-title">
      <h2 id="waiting-title">
        Lista de espera <span className="muted">({waiting.length})</span>
      </h2>
      {waiting.length === 0 ? (
        <EmptyState title="Nadie está en la lista de espera." />
      ) : (
        <ol className="admin-event-list">
          {waiting.map((w, i) => (
            <li key={w.userId}>
              <div>
                <strong>
                  {i + 1}. {w.nombre}
                </strong>
                <span className="user-email">
                  <EmailAddress email={w.email} />
                </span>
                <span className="muted">Desde el {formatDateTime(w.createdAt, timeZone)}</span>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
