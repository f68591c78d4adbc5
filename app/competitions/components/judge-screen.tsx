// The judge's screen of one category (decision 059), made for a phone held in one hand: large
// targets and large numbers. Each format's form posts to the page without JavaScript; with it,
// `onEntry` takes the entry to the phone's queue (useJudgeSync) instead. This module renders what
// the page and the hook hold; it decides nothing the server does not decide again.
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { Form, Link } from "react-router";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import { roundName, type Bracket, type Match } from "~/competitions/judging/bracket";
import {
  EntryProblem,
  parseEntry,
  pointsFieldName,
  runSeenKey,
  type EntryFields,
  type EntryIntent,
} from "~/competitions/judging/judge-entry";
import type { StoredEntry } from "~/competitions/judging/judge-store";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import type { TimeTrialRow } from "~/competitions/judging/time-trial";
import type { ShownRun, ShownSheet } from "~/competitions/judging/use-judge-sync";
import { placeText, pointsText, secondsText } from "./results-view";

/** Takes an entry to the phone's queue; null while the forms post to the page. */
export type OnEntry = ((intent: EntryIntent, fields: EntryFields, label: string) => void) | null;

const STATE_WORDS = {
  standing: "",
  conflict: " (en conflicto: la organización decide)",
  pending: " (por enviar)",
} as const;

function runText(run: Pick<ShownRun, "timeMs" | "penaltyMs">): string {
  if (run.timeMs === null) return "No terminó";
  return run.penaltyMs > 0
    ? `${secondsText(run.timeMs)} + ${secondsText(run.penaltyMs)} de penalización`
    : secondsText(run.timeMs);
}

/** The form's fields as the entry's, with the button that sent it. */
function fieldsOf(event: FormEvent<HTMLFormElement>): EntryFields {
  const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
  const form = new FormData(event.currentTarget, submitter);
  const fields: EntryFields = {};
  for (const [key, value] of form) {
    if (key !== "intent" && key !== "anotacion" && typeof value === "string") fields[key] = value;
  }
  return fields;
}

/**
 * A form of one entry: without the phone's queue it posts to the page; with it, the entry is
 * checked here first (a mistyped time is said at once) and then queued.
 */
function EntryForm({
  intent,
  entryId,
  board,
  onEntry,
  label,
  onQueued,
  className,
  oneTap = false,
  seen,
  children,
}: {
  intent: EntryIntent;
  entryId: string;
  board: JudgeBoard;
  onEntry: OnEntry;
  label: (fields: EntryFields) => string;
  onQueued?: (form: HTMLFormElement) => void;
  className?: string;
  /** Taps within half a second count once (a bracket's next round appears under the thumb). */
  oneTap?: boolean;
  /**
   * What the screen showed as standing for what these fields name: null when nothing (an
   * organiser's entry is then not a correction of one they never saw), else how it names it
   * (`visto`: a correction counts only over that one; decision 059).
   */
  seen?: (fields: EntryFields) => string | null;
  children: (error: string | null) => ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  // A second tap within a moment is the same tap (a bracket's next round appears under the thumb).
  const lastTap = useRef(0);
  function submit(event: FormEvent<HTMLFormElement>) {
    if (!onEntry) return;
    event.preventDefault();
    if (oneTap) {
      const now = Date.now();
      if (now - lastTap.current < 500) return;
      lastTap.current = now;
    }
    const fields = fieldsOf(event);
    try {
      parseEntry(intent, fields, board.category);
    } catch (problem) {
      if (problem instanceof EntryProblem) {
        setError(problem.message);
        return;
      }
      throw problem;
    }
    setError(null);
    const shown = seen?.(fields);
    if (shown === null) fields.sinVer = "1";
    else if (shown !== undefined) fields.visto = shown;
    onEntry(intent, fields, label(fields));
    onQueued?.(event.currentTarget);
  }
  return (
    <Form method="post" className={className ?? "judge-form"} onSubmit={submit} preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="anotacion" value={entryId} />
      <fieldset disabled={board.category.final} className="judge-fieldset">
        {children(error)}
      </fieldset>
    </Form>
  );
}

function FieldError({ id, message }: { id: string; message: string | null }) {
  return message ? (
    <p className="field-error" role="alert" id={id}>
      {message}
    </p>
  ) : null;
}

// ——— Time trial ———

export function TimeTrialPanel({
  board,
  entryId,
  runs,
  ranking,
  onEntry,
}: {
  board: JudgeBoard;
  entryId: string;
  runs: ShownRun[];
  ranking: TimeTrialRow[];
  onEntry: OnEntry;
}) {
  const { attempts } = board.category;
  const [teamId, setTeamId] = useState("");
  const [attempt, setAttempt] = useState(1);
  const [dnf, setDnf] = useState(false);
  const name = (id: string) => board.names[id] ?? "Equipo";
  const nextAttempt = (id: string) => {
    for (let a = 1; a <= attempts; a++)
      if (!runs.some((r) => r.teamId === id && r.attempt === a && r.state !== "conflict")) return a;
    return attempts;
  };
  const mine = runs.filter((r) => r.teamId === teamId).sort((a, b) => a.attempt - b.attempt);
  const row = ranking.find((r) => r.teamId === teamId);
  if (board.teams.length === 0)
    return <p className="judge-note">{JUDGING_MESSAGES.noTeamsInPlay}</p>;
  return (
    <>
      <EntryForm
        intent="vuelta"
        entryId={entryId}
        board={board}
        onEntry={onEntry}
        // Seen: this phone's own latest run still waiting for it (a fix of one's own fix counts
        // only if that one stands when it arrives), else the run the server has; none: null.
        seen={(f) => {
          const slot = runs.filter((r) => r.teamId === f.equipo && r.attempt === Number(f.vuelta));
          const shown =
            slot.filter((r) => r.state === "pending").at(-1) ??
            slot.find((r) => r.state === "standing");
          return shown ? runSeenKey(shown) : null;
        }}
        label={(f) =>
          `Vuelta ${f.vuelta} de «${name(f.equipo ?? "")}»: ${
            f.noTermino
              ? "no terminó"
              : `${f.tiempo} s${f.penalizacion ? ` + ${f.penalizacion} s` : ""}`
          }`
        }
        onQueued={(form) => {
          for (const field of ["tiempo", "penalizacion"])
            (form.elements.namedItem(field) as HTMLInputElement).value = "";
          setDnf(false);
          setAttempt(Math.min(attempts, attempt + 1));
        }}
      >
        {(error) => (
          <>
            <legend className="visually-hidden">Anotar una vuelta</legend>
            <label className="judge-label" htmlFor="judge-team">
              Equipo
            </label>
            <select
              id="judge-team"
              name="equipo"
              className="judge-select"
              value={teamId}
              onChange={(e) => {
                setTeamId(e.target.value);
                setAttempt(nextAttempt(e.target.value));
              }}
              required
              aria-describedby={error ? "judge-run-error" : undefined}
            >
              <option value="">Elige un equipo</option>
              {board.teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <fieldset className="judge-choices">
              <legend className="judge-label">Vuelta</legend>
              {Array.from({ length: attempts }, (_, i) => i + 1).map((a) => (
                <label key={a} className="judge-choice">
                  <input
                    type="radio"
                    name="vuelta"
                    value={a}
                    checked={attempt === a}
                    onChange={() => setAttempt(a)}
                  />
                  {a}
                </label>
              ))}
            </fieldset>
            <label className="judge-label" htmlFor="judge-time">
              Tiempo (segundos)
            </label>
            <input
              id="judge-time"
              name="tiempo"
              type="text"
              className="judge-number"
              inputMode="decimal"
              autoComplete="off"
              placeholder="12,345"
              maxLength={12}
              disabled={dnf}
              aria-describedby={error ? "judge-run-error" : undefined}
            />
            <label className="judge-label" htmlFor="judge-penalty">
              Penalizaciones (segundos, vacío: ninguna)
            </label>
            <input
              id="judge-penalty"
              name="penalizacion"
              type="text"
              className="judge-number"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0"
              maxLength={12}
              aria-describedby={error ? "judge-run-error" : undefined}
            />
            <label className="judge-choice judge-dnf">
              <input
                type="checkbox"
                name="noTermino"
                value="1"
                checked={dnf}
                onChange={(e) => setDnf(e.target.checked)}
              />
              No terminó
            </label>
            <FieldError id="judge-run-error" message={error} />
            <button type="submit" className="button judge-submit">
              Anotar vuelta
            </button>
          </>
        )}
      </EntryForm>
      {teamId ? (
        <section className="card judge-team" aria-labelledby="judge-team-title">
          <h2 id="judge-team-title">{name(teamId)}</h2>
          <p className="judge-place">
            {row?.place
              ? `Puesto actual: ${placeText(row.place)} de ${ranking.length}`
              : "Sin puesto todavía: ninguna vuelta terminada."}
          </p>
          {mine.length === 0 ? (
            <p>Aún no tiene vueltas anotadas.</p>
          ) : (
            <ul className="judge-runs">
              {mine.map((r, i) => (
                <li key={`${r.attempt}-${r.state}-${i}`}>
                  Vuelta {r.attempt}: <strong>{runText(r)}</strong>
                  {STATE_WORDS[r.state]}
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <section aria-labelledby="judge-ranking-title">
        <h2 id="judge-ranking-title">Posiciones</h2>
        <ol className="judge-ranking">
          {ranking.map((r) => (
            <li key={r.teamId}>
              <span className="judge-ranking-place">{placeText(r.place)}</span>
              <span className="judge-ranking-team">{name(r.teamId)}</span>
              <span className="judge-ranking-number">{secondsText(r.best)}</span>
              <span className="judge-ranking-runs">
                {runs
                  .filter((x) => x.teamId === r.teamId)
                  .sort((a, b) => a.attempt - b.attempt)
                  .map((x) => `V${x.attempt}: ${runText(x)}${STATE_WORDS[x.state]}`)
                  .join(" · ") || "Sin vueltas"}
              </span>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

// ——— Bracket ———

function matchLabel(match: Match, bracket: Bracket): string {
  if (match.id === "tercer-puesto") return "Partido por el tercer puesto";
  const round = bracket.rounds[match.round - 1] ?? [];
  const name = roundName(match.round, bracket.rounds.length);
  return round.length > 1 ? `${name} · partido ${round.indexOf(match) + 1}` : name;
}

export function BracketPanel({
  board,
  entryId,
  bracket,
  pendingRounds,
  onEntry,
}: {
  board: JudgeBoard;
  entryId: string;
  bracket: Bracket | null;
  pendingRounds: Map<string, number>;
  onEntry: OnEntry;
}) {
  if (!bracket) return <p className="judge-note">{JUDGING_MESSAGES.noDraw}</p>;
  const name = (id: string | null) => (id ? (board.names[id] ?? "Equipo") : "Por definir");
  const matches = [...bracket.rounds.flat(), ...(bracket.thirdPlace ? [bracket.thirdPlace] : [])];
  const due = matches.filter((m) => m.due);
  const byes = matches.filter((m) => m.bye);
  const decided = matches.filter((m) => !m.bye && m.winner !== null);
  const later = matches.filter((m) => !m.bye && !m.due && m.winner === null);
  const roundsOf = (m: Match) => (
    <ol className="judge-rounds">
      {m.rounds.map((w, i) => (
        <li key={i}>
          Ronda {i + 1}: ganó «{name(w)}»
          {pendingRounds.has(`${m.id}/${i + 1}`) ? STATE_WORDS.pending : ""}
        </li>
      ))}
    </ol>
  );
  return (
    <>
      <section aria-labelledby="judge-due-title">
        <h2 id="judge-due-title">Partidos por jugar ahora</h2>
        {due.length === 0 ? (
          <p className="judge-note">
            {bracket.champion
              ? `Las llaves terminaron: ganó «${name(bracket.champion)}».`
              : "Ningún partido está por jugarse ahora."}
          </p>
        ) : null}
        <ul className="judge-matches">
          {due.map((m) => {
            const round = m.rounds.length + 1;
            return (
              <li key={m.id} className="card judge-match" id={`partido-${m.id}`}>
                <h3 className="judge-match-title">{matchLabel(m, bracket)}</h3>
                <p className="judge-match-teams">
                  «{name(m.a)}» contra «{name(m.b)}»
                </p>
                {roundsOf(m)}
                <EntryForm
                  intent="ronda"
                  entryId={entryId}
                  board={board}
                  onEntry={onEntry}
                  className="judge-form judge-round-form"
                  oneTap
                  label={(f) =>
                    `${matchLabel(m, bracket)}, ronda ${round}: gana «${name(f.ganador ?? null)}»`
                  }
                >
                  {(error) => (
                    <>
                      <legend className="judge-label">Ronda {round}: ¿quién ganó?</legend>
                      <input type="hidden" name="partido" value={m.id} />
                      <input type="hidden" name="ronda" value={round} />
                      {/* Only the round to play next is offered: none is shown for it yet. */}
                      <input type="hidden" name="sinVer" value="1" />
                      <div className="judge-winners">
                        {[m.a, m.b].map((team) => (
                          <button
                            key={team}
                            type="submit"
                            name="ganador"
                            value={team ?? ""}
                            className="button judge-winner"
                          >
                            Gana «{name(team)}»
                          </button>
                        ))}
                      </div>
                      <FieldError id={`judge-error-${m.id}`} message={error} />
                    </>
                  )}
                </EntryForm>
              </li>
            );
          })}
        </ul>
      </section>
      {byes.length > 0 ? (
        <section aria-labelledby="judge-byes-title">
          <h2 id="judge-byes-title">Pasan sin rival</h2>
          <ul className="judge-list">
            {byes.map((m) => (
              <li key={m.id}>
                «{name(m.a ?? m.b)}» pasa a la ronda siguiente sin rival (
                {matchLabel(m, bracket).toLowerCase()}).
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {decided.length > 0 ? (
        <section aria-labelledby="judge-decided-title">
          <h2 id="judge-decided-title">Partidos decididos</h2>
          <ul className="judge-list">
            {decided.map((m) => (
              <li key={m.id}>
                <strong>{matchLabel(m, bracket)}</strong>: ganó «{name(m.winner)}» a «
                {name(m.winner === m.a ? m.b : m.a)}»{roundsOf(m)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {later.length > 0 ? (
        <section aria-labelledby="judge-later-title">
          <h2 id="judge-later-title">Más adelante</h2>
          <ul className="judge-list">
            {later.map((m) => (
              <li key={m.id}>
                {matchLabel(m, bracket)}: «{name(m.a)}» contra «{name(m.b)}»
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

// ——— Score sheet ———

export function ScoreSheetPanel({
  board,
  entryId,
  sheets,
  onEntry,
}: {
  board: JudgeBoard;
  entryId: string;
  sheets: ShownSheet[];
  onEntry: OnEntry;
}) {
  const { criteria } = board.category;
  const name = (id: string) => board.names[id] ?? "Equipo";
  if (criteria.length === 0) return <p className="judge-note">{JUDGING_MESSAGES.noCriteria}</p>;
  if (board.teams.length === 0)
    return <p className="judge-note">{JUDGING_MESSAGES.noTeamsInPlay}</p>;
  const total = (points: Record<string, number>) =>
    criteria.reduce((sum, c) => sum + (points[c.id] ?? 0), 0);
  return (
    <>
      <EntryForm
        intent="hoja"
        entryId={entryId}
        board={board}
        onEntry={onEntry}
        label={(f) => `Hoja de «${name(f.equipo ?? "")}»`}
        onQueued={(form) => {
          for (const c of criteria)
            (form.elements.namedItem(pointsFieldName(c)) as HTMLInputElement).value = "";
          // The next sheet is another team's: a team is chosen again, never carried over.
          (form.elements.namedItem("equipo") as HTMLSelectElement).value = "";
        }}
      >
        {(error) => (
          <>
            <legend className="visually-hidden">Enviar mi hoja de puntaje</legend>
            <label className="judge-label" htmlFor="judge-sheet-team">
              Equipo
            </label>
            <select
              id="judge-sheet-team"
              name="equipo"
              className="judge-select"
              required
              aria-describedby={error ? "judge-sheet-error" : undefined}
            >
              <option value="">Elige un equipo</option>
              {board.teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {criteria.map((c) => (
              <div key={c.id} className="judge-criterion">
                <label className="judge-label" htmlFor={`judge-${c.id}`}>
                  {c.name} (máx. {c.max})
                </label>
                <input
                  id={`judge-${c.id}`}
                  name={pointsFieldName(c)}
                  type="text"
                  className="judge-number"
                  inputMode="decimal"
                  autoComplete="off"
                  maxLength={8}
                  required
                  aria-describedby={error ? "judge-sheet-error" : undefined}
                />
              </div>
            ))}
            <FieldError id="judge-sheet-error" message={error} />
            <button type="submit" className="button judge-submit">
              Enviar mi hoja
            </button>
          </>
        )}
      </EntryForm>
      <section aria-labelledby="judge-sheets-title">
        <h2 id="judge-sheets-title">Mis hojas enviadas</h2>
        {sheets.length === 0 ? (
          <p>Aún no enviaste hojas en esta categoría.</p>
        ) : (
          <ul className="judge-list">
            {sheets.map((s, i) => (
              <li key={`${s.teamId}-${s.state}-${i}`}>
                <strong>«{name(s.teamId)}»</strong>: total {pointsText(total(s.points))}
                {STATE_WORDS[s.state]}
                <span className="judge-sheet-points">
                  {criteria.map((c) => `${c.name} ${pointsText(s.points[c.id])}`).join(" · ")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

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
