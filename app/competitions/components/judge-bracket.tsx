// The judge's screen of a bracket (decision 059): the round's matches, a winner a tap.
import type { JudgeBoard } from "~/competitions/judging/board.server";
import { roundName, type Bracket, type Match } from "~/competitions/judging/bracket";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import { EntryForm, FieldError, STATE_WORDS, type OnEntry } from "./judge-entry-form";

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
