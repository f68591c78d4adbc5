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

/** The queue in words: what waits on this phone, and what becomes of it. */
export function queueText(pending: number, online: boolean): string {
  if (pending === 0) return "Nada pendiente.";
  const many = pending > 1;
  const entries = many ? `${pending} anotaciones` : "1 anotación";
  return online
    ? `${entries} ${many ? "se están enviando" : "se está enviando"}.`
    : `${entries} ${many ? "esperan" : "espera"} conexión; se ${many ? "enviarán solas" : "enviará sola"}.`;
}

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
      <p className="judge-status-line">
        <span className={online ? "badge judge-online" : "badge judge-offline"}>
          {online ? "En línea" : "Sin conexión"}
        </span>{" "}
        <span className="judge-queue">
          {sessionEnded && pending > 0
            ? `${pending === 1 ? "1 anotación espera" : `${pending} anotaciones esperan`} a que inicies sesión.`
            : queueText(pending, online)}
        </span>
      </p>
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

/**
 * The category's rules, folded under the title: the tie rule and, for a time trial, how many runs
 * count. A `<details>`, so it opens with a tap also without JavaScript.
 */
export function JudgeRules({ category }: { category: JudgeBoard["category"] }) {
  return (
    <details className="judge-rules">
      <summary>Reglas</summary>
      <p>
        <strong>Desempate: {category.tieRuleLabel}.</strong> {category.tieRuleExplain}
        {category.format === "tiempo"
          ? ` Cuenta la mejor de ${category.attempts} ${category.attempts === 1 ? "vuelta" : "vueltas"}.`
          : ""}
      </p>
    </details>
  );
}

/** What happened to an entry, in words. */
export function answerText(entry: Pick<StoredEntry, "answer">, online: boolean): string {
  if (entry.answer === null)
    return online ? "Enviando…" : "Por enviar: se enviará al volver la conexión.";
  return entry.answer.ok ? entry.answer.message : `No se anotó: ${entry.answer.message}`;
}

/**
 * The last entry's fate, short: waiting, it says only that (the queue's line above says the rest),
 * so the box keeps its size.
 */
export function outcomeText(entry: Pick<StoredEntry, "answer">, online: boolean): string {
  return entry.answer === null && !online ? "Por enviar." : answerText(entry, online);
}

/** The last entry's fate, large, in the same place above the form after every entry. */
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
      <p className="judge-outcome-text">{text}</p>
      {label ? <p className="judge-outcome-label">{label}</p> : null}
    </div>
  );
}

/** Where the last entry's fate will be, before there is one: the same place, the same size. */
export function NoOutcomeYet() {
  return (
    <div className="judge-outcome judge-outcome-none">
      <p className="judge-outcome-label">Aún no anotaste nada en este teléfono.</p>
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
