import { useEffect, useRef } from "react";
import { Avatar } from "~/ui/avatar";
import { zonedDateTime } from "~/kernel/time";
import type { CheckInOutcome } from "~/attendance/use-check-in-sync";

const RESULT_CLASS = {
  in: "admin-checkin-result-in",
  already: "admin-checkin-result-already",
  refused: "admin-checkin-result-refused",
} as const;

/** A short buzz for "in", two for "already", two longer ones for "not in" (milliseconds). */
const VIBRATION = {
  in: [80],
  already: [60, 60, 60],
  refused: [160, 80, 160],
} as const;

function timeOf(instant: string, timeZone: string): string {
  return zonedDateTime(instant, timeZone).time;
}

/**
 * The last scan's or code's outcome, next to the code field, read out by screen readers as it
 * changes and felt as a short vibration where the phone has one; a prompt before the first. A
 * typed code that matches nobody is shown as the field's error, and only read out here.
 */
export function CheckInResult({
  outcome,
  timeZone,
}: {
  outcome: CheckInOutcome | null;
  timeZone: string;
}) {
  // Each outcome is a new element, so that the same message twice is read out twice.
  const count = useRef(0);
  const seen = useRef<CheckInOutcome | null>(null);
  if (outcome !== seen.current) {
    seen.current = outcome;
    count.current++;
  }
  useEffect(() => {
    if (outcome && typeof navigator.vibrate === "function") {
      navigator.vibrate([...VIBRATION[outcome.kind]]);
    }
  }, [outcome]);

  const typedRefusal = outcome?.kind === "refused" && outcome.typed;
  return (
    <div aria-live="assertive" aria-atomic="true" className="admin-checkin-result-region">
      {outcome && !typedRefusal ? (
        <section
          key={count.current}
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
              <Avatar name={outcome.person.nombre} photoURL={outcome.person.photoURL} size={48} />
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
        <>
          <p className="card admin-checkin-result admin-checkin-result-idle">
            Escanea el código QR de la persona o escribe su código.
          </p>
          {typedRefusal ? (
            <p key={count.current} className="visually-hidden">
              No registrado: {outcome.message}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}
