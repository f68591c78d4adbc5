import { Link } from "react-router";
import type { CheckInPerson } from "~/attendance/check-in";

/** The check-in page's counts: who is present, the connection, the queue, a session that ended. */
export function CheckInStatus({
  people,
  online,
  pending,
  sessionEnded,
}: {
  people: CheckInPerson[];
  online: boolean;
  pending: number;
  sessionEnded: boolean;
}) {
  const present = people.filter((p) => p.checkedInAt !== null).length;
  return (
    <div className="admin-checkin-status" role="status">
      <p className="admin-checkin-count">
        <strong>{present}</strong> de {people.length} presentes
      </p>
      <ul className="badge-list" aria-label="Conexión">
        <li className={online ? "badge admin-checkin-online" : "badge admin-checkin-offline"}>
          {online ? "En línea" : "Sin conexión"}
        </li>
        <li className="badge">
          {pending === 0
            ? "Nada pendiente"
            : pending === 1
              ? "1 registro por enviar"
              : `${pending} registros por enviar`}
        </li>
      </ul>
      {sessionEnded ? (
        <p className="admin-checkin-warning">
          Tu sesión terminó: <Link to="/login">inicia sesión</Link> de nuevo para enviar los
          registros pendientes. Siguen guardados en este teléfono.
        </p>
      ) : null}
    </div>
  );
}
