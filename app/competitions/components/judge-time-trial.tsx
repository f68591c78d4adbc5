// The judge's screen of a time trial (decision 059): each team's runs, one entry a run.
import { useState } from "react";
import type { JudgeBoard } from "~/competitions/judging/board.server";
import { runSeenKey } from "~/competitions/judging/judge-entry";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import type { TimeTrialRow } from "~/competitions/judging/time-trial";
import type { ShownRun } from "~/competitions/judging/use-judge-sync";
import { placeText, secondsText } from "./results-view";
import { EntryForm, FieldError, runText, STATE_WORDS, type OnEntry } from "./judge-entry-form";

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
  const described = (hint: string, error: string | null) =>
    error ? `${hint} judge-run-error` : hint;
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
            <div className="judge-inline">
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
            </div>
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
            {/* Side by side: the time and its penalty are one run's numbers. Each says its format
                beside its name, never inside the field, where it would pass for a typed value. */}
            <div className="judge-pair">
              <div className="judge-field">
                <label className="judge-label" htmlFor="judge-time">
                  Tiempo
                </label>
                <span className="field-hint" id="judge-time-hint">
                  segundos: 12,345
                </span>
                <input
                  id="judge-time"
                  name="tiempo"
                  type="text"
                  className="judge-number"
                  inputMode="decimal"
                  autoComplete="off"
                  maxLength={12}
                  disabled={dnf}
                  aria-describedby={described("judge-time-hint", error)}
                />
              </div>
              <div className="judge-field">
                <label className="judge-label" htmlFor="judge-penalty">
                  Penalización
                </label>
                <span className="field-hint" id="judge-penalty-hint">
                  segundos, si hubo
                </span>
                <input
                  id="judge-penalty"
                  name="penalizacion"
                  type="text"
                  className="judge-number"
                  inputMode="decimal"
                  autoComplete="off"
                  maxLength={12}
                  aria-describedby={described("judge-penalty-hint", error)}
                />
              </div>
            </div>
            <FieldError id="judge-run-error" message={error} />
            {/* A run that did not finish is marked beside the button that sends it. */}
            <div className="judge-send">
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
              <button type="submit" className="button judge-submit">
                Anotar vuelta
              </button>
            </div>
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
