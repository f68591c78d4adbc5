import { Avatar } from "~/ui/avatar";
import { zonedDateTime } from "~/kernel/time";
import type { CheckInOutcome } from "~/attendance/use-check-in-sync";

const RESULT_CLASS = {
  in: "admin-checkin-result-in",
  already: "admin-checkin-result-already",
  refused: "admin-checkin-result-refused",
} as const;

function timeOf(instant: string, timeZone: string): string {
  return zonedDateTime(instant, timeZone).time;
}

/** The last scan's or code's outcome, read out as it changes; a prompt before the first. */
export function CheckInResult({
  outcome,
  timeZone,
}: {
  outcome: CheckInOutcome | null;
  timeZone: string;
}) {
  return (
    <div aria-live="assertive" aria-atomic="true">
      {outcome ? (
        <section
          className={`card admin-checkin-result ${RESULT_CLASS[outcome.kind]}`}
          aria-labelledby="checkin-result-title"
        >
          {outcome.kind === "refused" ? (
            <>
              <h2 id="checkin-result-title">No registrado</h2>
              <p>
                {outcome.person ? `${outcome.person.nombre}: ` : ""}
                {outcome.message}
              </p>
            </>
          ) : (
            <div className="admin-checkin-person">
              <Avatar name={outcome.person.nombre} photoURL={outcome.person.photoURL} size={96} />
              <div>
                <h2 id="checkin-result-title">{outcome.person.nombre}</h2>
                <p className="admin-checkin-verdict">
                  {outcome.kind === "in"
                    ? `Presente · ${timeOf(outcome.person.checkedInAt!, timeZone)}`
                    : `Ya había entrado a las ${timeOf(outcome.person.checkedInAt!, timeZone)}`}
                  {outcome.kind === "already" && outcome.person.checkedInBy
                    ? ` (registró ${outcome.person.checkedInBy})`
                    : ""}
                </p>
              </div>
            </div>
          )}
        </section>
      ) : (
        <p className="card admin-checkin-result admin-checkin-result-idle">
          Escanea el código QR de la persona o escribe su código.
        </p>
      )}
    </div>
  );
}
