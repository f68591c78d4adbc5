import { formatDateTimeRange } from "~/kernel/time";

/** When a session runs, and 'Cancelada' if it was: the same line in the editor and on the page. */
export function SessionWhen({
  session,
  timeZone,
}: {
  session: { startsAt: string; endsAt: string; cancelled: boolean };
  timeZone: string;
}) {
  return (
    <span className="session-when">
      <time dateTime={session.startsAt}>
        {formatDateTimeRange(session.startsAt, session.endsAt, timeZone)}
      </time>
      {session.cancelled ? <span className="badge session-badge-cancelled">Cancelada</span> : null}
    </span>
  );
}
