// 'Mis entradas' (/mis-entradas): a member's passes for the door, one card per registration, their
// waiting lists and their certificates. Links are plain document links: the page is also shown
// from the phone's copy without a connection, where the client-side router has nothing to fetch.
import { CheckInPass } from "~/attendance/components/check-in-pass";
import { SessionWhen } from "~/events/components/session-when";
import { formatDateRange, formatDateTime, formatDateTimeRange } from "~/kernel/time";
import { formatBs } from "~/payments/money";
import { EmptyState } from "~/ui/item-card";
import type { MyCertificate, MyPass, PlaceState } from "~/attendance/my-passes.server";

const STATE_TEXT: Record<PlaceState, string> = {
  confirmed: "Plaza confirmada",
  paid: "Plaza confirmada · Pagada",
  waived: "Plaza confirmada · Beca",
  pending: "Pendiente de pago",
  submitted: "Pago por revisar",
  refused: "Pago rechazado",
};

/** Whether the place still waits for a payment (the door may ask for it). */
const unpaid = (state: PlaceState) =>
  state === "pending" || state === "submitted" || state === "refused";

function PlaceLine({ pass, timeZone }: { pass: MyPass; timeZone: string }) {
  const waiting = unpaid(pass.state);
  return (
    <p className="passes-state">
      <span className={waiting ? "badge passes-badge-unpaid" : "badge passes-badge-confirmed"}>
        {STATE_TEXT[pass.state]}
      </span>
      {pass.state === "pending" || pass.state === "refused" ? (
        <>
          <span>
            {formatBs(pass.priceCents)}
            {pass.heldUntil
              ? ` · reservada hasta el ${formatDateTime(pass.heldUntil, timeZone)}`
              : null}
          </span>
          <a href={`/detalles/${pass.eventId}/pago`}>Pagar mi inscripción</a>
        </>
      ) : pass.state === "submitted" ? (
        <span>Tesorería está revisando tu pago.</span>
      ) : null}
    </p>
  );
}

function PassCard({ pass, timeZone }: { pass: MyPass; timeZone: string }) {
  const titleId = `entrada-${pass.eventId}`;
  const held = pass.sessions.filter((s) => !s.cancelled).length;
  return (
    <article className="card passes-pass" aria-labelledby={titleId}>
      <h3 id={titleId}>
        <a href={`/detalles/${pass.eventId}`}>{pass.nombreEvento}</a>
      </h3>
      <p className="passes-when">
        <time dateTime={pass.startsAt}>
          {pass.sessions.length > 0
            ? formatDateRange(pass.startsAt, pass.endsAt, timeZone)
            : formatDateTimeRange(pass.startsAt, pass.endsAt, timeZone)}
        </time>
      </p>
      <p className="passes-place">{pass.place}</p>
      {pass.teams.length > 0 ? (
        <p>Compites con {pass.teams.map((t) => `«${t}»`).join(", ")}: este es tu pase.</p>
      ) : null}
      <PlaceLine pass={pass} timeZone={timeZone} />
      {/* The pass first: a course of twenty classes does not push it down. */}
      {pass.pass ? (
        <CheckInPass pass={pass.pass} />
      ) : (
        <p className="muted">
          Evento virtual: no hace falta entrada. Los enlaces están en su página.
        </p>
      )}
      {pass.sessions.length > 0 ? (
        <>
          <h4 className="passes-sessions-title">
            {held === 1 ? "Queda 1 sesión" : `Quedan ${held} sesiones`}
          </h4>
          <ol className="plain-list passes-sessions">
            {pass.sessions.map((s) => (
              <li key={s.id}>
                <SessionWhen session={s} timeZone={timeZone} />
                {s.place ? <span className="muted"> · {s.place}</span> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </article>
  );
}

export function MyPassList({ passes, timeZone }: { passes: MyPass[]; timeZone: string }) {
  return (
    <section aria-labelledby="passes-title" className="passes-section">
      <h2 id="passes-title">Próximos eventos</h2>
      {passes.length === 0 ? (
        <EmptyState title="No tienes entradas para próximos eventos.">
          <a className="button button-secondary" href="/eventos">
            Ver los próximos eventos
          </a>
        </EmptyState>
      ) : (
        <>
          <p className="muted">
            Muestra el código QR en la puerta. Si no se puede escanear, di tu código.
          </p>
          {passes.map((pass) => (
            <PassCard key={pass.eventId} pass={pass} timeZone={timeZone} />
          ))}
        </>
      )}
    </section>
  );
}

export function MyWaitingLists({
  waiting,
  timeZone,
}: {
  waiting: Array<{ eventId: string; nombreEvento: string; startsAt: string; position: number }>;
  timeZone: string;
}) {
  if (waiting.length === 0) return null;
  return (
    <section className="card passes-section" aria-labelledby="passes-waiting-title">
      <h2 id="passes-waiting-title">En lista de espera</h2>
      <p className="muted">Si se libera una plaza, te avisaremos por correo y aparecerá aquí.</p>
      <ul className="plain-list passes-rows">
        {waiting.map((w) => (
          <li key={w.eventId}>
            <a href={`/detalles/${w.eventId}`}>{w.nombreEvento}</a>
            <span className="muted">
              {formatDateTime(w.startsAt, timeZone)} · posición {w.position}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function MyCertificates({
  certificates,
  timeZone,
}: {
  certificates: MyCertificate[];
  timeZone: string;
}) {
  if (certificates.length === 0) return null;
  return (
    <section className="card passes-section" aria-labelledby="passes-certificates-title">
      <h2 id="passes-certificates-title">Mis certificados</h2>
      <ul className="plain-list passes-rows">
        {certificates.map((c) => (
          <li key={c.eventId}>
            <strong>{c.nombreEvento}</strong>
            <span className="muted">{formatDateRange(c.startsAt, c.endsAt, timeZone)}</span>
            <span>
              Código de verificación: <strong className="passes-certificate-code">{c.code}</strong>
            </span>
            <span className="passes-certificate-links">
              <a
                className="button button-small"
                href={`/detalles/${c.eventId}/certificado.pdf`}
                download
                aria-label={`Descargar certificado de ${c.nombreEvento}`}
              >
                Descargar certificado
              </a>
              <a
                className="button button-small button-secondary"
                href={c.verifyUrl}
                aria-label={`Verificar el certificado de ${c.nombreEvento}`}
              >
                Verificar
              </a>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
