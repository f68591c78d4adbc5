// The two lists of an event's participants page (/admin/eventos/:id/participantes): who takes
// part, with 'Marcar presente' or 'Quitar asistencia' and, after the event, the certificate; and
// who waits for a seat, in order.
import { Form } from "react-router";
import { formatDateTime } from "~/kernel/time";
import { EmptyState } from "~/ui/item-card";
import { EmailAddress } from "~/ui/email-address";

export interface ParticipantRow {
  userId: string;
  nombre: string;
  email: string;
  ciudad: string | null;
  joinedAt: string;
  checkedInAt: string | null;
}

export interface WaitingRow {
  userId: string;
  nombre: string;
  email: string;
  createdAt: string;
}

export function ParticipantList({
  eventId,
  participants,
  ended,
  busy,
  timeZone,
}: {
  eventId: string;
  participants: ParticipantRow[];
  ended: boolean;
  busy: boolean;
  timeZone: string;
}) {
  return (
    <section className="card" aria-labelledby="participants-title">
      <h2 id="participants-title">
        Participantes <span className="muted">({participants.length})</span>
      </h2>
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
                {p.checkedInAt ? (
                  <span>Asistió · {formatDateTime(p.checkedInAt, timeZone)}</span>
                ) : null}
              </div>
              <Form method="post" className="row-actions">
                {ended && p.checkedInAt ? (
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
                ) : (
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
                )}
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
