// The judge's screen of one category (decision 059), made for a phone held in one hand: large
// targets and large numbers. Each format's form posts to the page without JavaScript; with it,
// `onEntry` takes the entry to the phone's queue (useJudgeSync) instead. This module renders what
// the page and the hook hold; it decides nothing the server does not decide again.
// Its three formats are judge-time-trial.tsx, judge-bracket.tsx and judge-score-sheet.tsx, with
// what they share in judge-entry-form.tsx; here are the connection, the queue and what happened.
import { Link } from "react-router";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import type { StoredEntry } from "~/competitions/judging/judge-store";

// ——— The connection, the queue, what happened ———

export function JudgeStatus({
  online,
  pending,
  sessionEnded,
}: {
  online: boolean;
  pending: number;
  sessionEnded: boolean;
}) {
  return (
    <div className="judge-status" role="status">
      <ul className="badge-list" aria-label="Conexión">
        <li className={online ? "badge judge-online" : "badge judge-offline"}>
          {online ? "En línea" : "Sin conexión"}
        </li>
        <li className="badge">
          {pending === 0
            ? "Todo enviado"
            : pending === 1
              ? "1 anotación por enviar"
              : `${pending} anotaciones por enviar`}
        </li>
      </ul>
      {sessionEnded ? (
        <p className="judge-warning">
          No se puede enviar: tu sesión terminó o ya no anotas en esta categoría.{" "}
          <Link to="/login">Inicia sesión</Link> de nuevo para enviar las anotaciones pendientes:
          siguen guardadas en este teléfono.
        </p>
      ) : null}
    </div>
  );
}

/** What happened to an entry, in words. */
export function answerText(entry: Pick<StoredEntry, "answer">, online: boolean): string {
  if (entry.answer === null)
    return online ? "Enviando…" : "Por enviar: se enviará al volver la conexión.";
  return entry.answer.ok ? entry.answer.message : `No se anotó: ${entry.answer.message}`;
}

/** The last entry's fate, large, where the thumb is. */
export function LastOutcome({
  label,
  text,
  refused,
}: {
  label: string;
  text: string;
  refused: boolean;
}) {
  return (
    <div className={refused ? "judge-outcome judge-outcome-refused" : "judge-outcome"}>
      {label ? <p className="judge-outcome-label">{label}</p> : null}
      <p className="judge-outcome-text">{text}</p>
    </div>
  );
}

export function EntryLog({ entries, online }: { entries: StoredEntry[]; online: boolean }) {
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="judge-log-title">
      <h2 id="judge-log-title">Anotaciones de este teléfono</h2>
      <ol className="judge-log" reversed>
        {[...entries].reverse().map((e) => (
          <li
            key={e.id}
            className={
              e.answer === null
                ? "judge-log-pending"
                : e.answer.ok
                  ? e.answer.outcome === "conflict"
                    ? "judge-log-conflict"
                    : undefined
                  : "judge-log-refused"
            }
          >
            <span className="judge-log-label">{e.label}</span>
            <span className="judge-log-answer">{answerText(e, online)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

// ——— What organisers prepare, on their own screen (decision 060) ———

/**
 * For organisers: the way to the category's screen, where the bracket is drawn or seeded, the
 * criteria and tie rule are set, conflicts are decided and the results made final.
 */
export function OrganiserPrep({ board }: { board: JudgeBoard }) {
  if (!board.organiser) return null;
  return (
    <section className="card judge-prep" aria-labelledby="judge-prep-title">
      <h2 id="judge-prep-title">Organización de la categoría</h2>
      <p>
        {board.category.format === "llaves"
          ? "El sorteo o la siembra de las llaves, la regla de desempate, los conflictos y la final."
          : board.category.format === "puntaje"
            ? "Los criterios y la regla de desempate, los conflictos y la final."
            : "Las vueltas y la regla de desempate, los conflictos y la final."}
      </p>
      <p>
        <a
          className="button button-secondary judge-submit"
          href={`/admin/eventos/${board.category.eventId}/categorias/${board.category.id}/resultados`}
        >
          Organizar resultados
        </a>
      </p>
    </section>
  );
}
