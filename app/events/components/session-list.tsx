import { Form } from "react-router";
import { eventLinkLabel } from "~/events/event-place";
import { SessionWhen } from "~/events/components/session-when";
import { formatDateTimeRange } from "~/kernel/time";

export interface ListedSession {
  id: string;
  startsAt: string;
  endsAt: string;
  place: string | null;
  link: string | null;
  cancelled: boolean;
  /** A participant's own marks (decision 045); null for anyone else. */
  mine: { attended: boolean; skipped: boolean; canSkip: boolean } | null;
}

/**
 * The sessions of a course or a club on its page (decisions 043 and 045): when and where each is,
 * and for a participant whether they came, and 'No podré ir' / 'Sí iré' for those to come. The
 * forms post without JavaScript.
 */
export function SessionList({
  sessions,
  timeZone,
}: {
  sessions: readonly ListedSession[];
  timeZone: string;
}) {
  return (
    <section className="event-sessions" aria-labelledby="event-sessions-title">
      <h2 id="event-sessions-title">Sesiones ({sessions.filter((s) => !s.cancelled).length})</h2>
      {sessions.some((s) => s.mine?.canSkip) ? (
        <p className="muted">
          ¿No podrás ir a alguna? Avísalo: mantienes tu lugar y no te enviaremos su recordatorio.
        </p>
      ) : null}
      <ol className="plain-list session-list">
        {sessions.map((s) => (
          <li key={s.id} className={s.cancelled ? "session-cancelled" : undefined}>
            <SessionWhen session={s} timeZone={timeZone} />
            {s.place || s.link ? (
              <span className="muted session-where">
                {s.place}
                {s.place && s.link ? " · " : null}
                {s.link ? (
                  <a href={s.link} target="_blank" rel="noopener noreferrer">
                    {eventLinkLabel(s.link)}
                    <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                  </a>
                ) : null}
              </span>
            ) : null}
            {s.mine?.attended ? (
              <span className="session-mine">
                <span className="badge session-badge-attended">Asististe</span>
              </span>
            ) : null}
            {s.mine && !s.cancelled && s.mine.skipped && !s.mine.attended ? (
              <span className="session-mine">
                <span className="badge session-badge-skipped">No irás</span>
              </span>
            ) : null}
            {s.mine?.canSkip ? (
              <Form method="post" className="session-skip" preventScrollReset>
                <input
                  type="hidden"
                  name="intent"
                  value={s.mine.skipped ? "unskipSession" : "skipSession"}
                />
                <input type="hidden" name="sessionId" value={s.id} />
                <button type="submit" className="button button-small button-secondary">
                  {s.mine.skipped ? "Sí iré" : "No podré ir"}
                  <span className="visually-hidden">
                    {` a la sesión del ${formatDateTimeRange(s.startsAt, s.endsAt, timeZone)}`}
                  </span>
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
