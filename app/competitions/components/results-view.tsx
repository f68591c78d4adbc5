// A category's results as the public reads them (decision 058): the ranking of its
// format, its tie rule in words, and for a bracket its matches. Plain HTML: the page and the
// projector render it on the server, and the live stream only swaps the data it is made from.
import type { CategoryResults, ResultRow } from "~/competitions/judging/results.server";
import { roundName, type Match } from "~/competitions/judging/bracket";

/** A time in seconds as the audience reads it: '12,345 s'; no time: 'no terminó'. */
export function secondsText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return `${(ms / 1000).toLocaleString("es-BO", { minimumFractionDigits: 3, maximumFractionDigits: 3 })} s`;
}

/** Hundredths of a point as '87,50'. */
export function pointsText(hundredths: number | null | undefined): string {
  if (hundredths === null || hundredths === undefined) return "—";
  return (hundredths / 100).toLocaleString("es-BO", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

const PLACE_NAMES: Record<number, string> = { 1: "1.º", 2: "2.º", 3: "3.º" };
export const placeText = (place: number | null) =>
  place === null ? "—" : (PLACE_NAMES[place] ?? `${place}.º`);

function TeamCell({ row, large }: { row: ResultRow; large: boolean }) {
  return (
    <>
      <span className="results-team">{row.team}</span>
      {large ? null : (
        <span className="results-team-facts">
          {row.school}, {row.city}
          {row.members.length > 0 ? ` · ${row.members.join(", ")}` : ""}
        </span>
      )}
    </>
  );
}

function Ranking({ results, large }: { results: CategoryResults; large: boolean }) {
  const { category, rows } = results;
  const time = category.format === "tiempo";
  const sheet = category.format === "puntaje";
  return (
    <table className="results-table">
      <caption className="visually-hidden">Posiciones de {category.name}</caption>
      <thead>
        <tr>
          <th scope="col">Puesto</th>
          <th scope="col">Equipo</th>
          {time ? <th scope="col">Mejor tiempo</th> : null}
          {sheet ? <th scope="col">Puntaje</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.teamId}
            className={row.place !== null && row.place <= 3 ? "results-podium" : undefined}
          >
            <td className="results-place">{placeText(row.place)}</td>
            <td>
              <TeamCell row={row} large={large} />
            </td>
            {time ? (
              <td className="results-number">
                {secondsText(row.best)}
                {!large && row.runs && row.runs.length > 1 ? (
                  <span className="results-runs">
                    Intentos: {row.runs.map((r) => (r === null ? "—" : secondsText(r))).join(" · ")}
                  </span>
                ) : null}
              </td>
            ) : null}
            {sheet ? (
              <td className="results-number">
                {pointsText(row.average)}
                {!large && row.judges ? (
                  <span className="results-runs">
                    {row.judges === 1 ? "1 jurado" : `${row.judges} jurados`}
                  </span>
                ) : null}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function MatchItem({
  match,
  names,
  total,
}: {
  match: Match;
  names: Map<string, string>;
  total: number;
}) {
  const name = (id: string | null) => (id ? (names.get(id) ?? "Equipo") : "Por definir");
  const label = match.id === "tercer-puesto" ? "Tercer puesto" : roundName(match.round, total);
  if (match.bye)
    return (
      <li className="results-match">
        <span className="results-match-round">{label}</span> {name(match.a ?? match.b)} pasa sin
        rival
      </li>
    );
  const wins = (id: string | null) => match.rounds.filter((w) => w === id).length;
  return (
    <li className="results-match">
      <span className="results-match-round">{label}</span>{" "}
      <span className={match.winner && match.winner === match.a ? "results-winner" : undefined}>
        {name(match.a)}
      </span>{" "}
      {match.a && match.b ? `${wins(match.a)}–${wins(match.b)}` : "vs."}{" "}
      <span className={match.winner && match.winner === match.b ? "results-winner" : undefined}>
        {name(match.b)}
      </span>
      {match.due ? <span className="results-due"> · por jugar</span> : null}
    </li>
  );
}

function BracketMatches({ results }: { results: CategoryResults }) {
  const bracket = results.bracket;
  if (!bracket) return <p className="muted">Las llaves se arman cuando empieza la categoría.</p>;
  const names = new Map(results.rows.map((r) => [r.teamId, r.team]));
  const total = bracket.rounds.length;
  return (
    <ol className="results-matches">
      {[...bracket.rounds]
        .reverse()
        .flatMap((round) =>
          round.map((match) => (
            <MatchItem key={match.id} match={match} names={names} total={total} />
          )),
        )}
      {bracket.thirdPlace ? (
        <MatchItem match={bracket.thirdPlace} names={names} total={total} />
      ) : null}
    </ol>
  );
}

/** One category's results: its state, its ranking, its bracket, its tie rule. */
export function CategoryResultsView({
  results,
  headingLevel = 2,
  large = false,
}: {
  results: CategoryResults;
  headingLevel?: 2 | 3;
  /** The projector's view: larger type, fewer facts. */
  large?: boolean;
}) {
  const { category } = results;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = `resultados-${category.id}`;
  return (
    <section
      className={large ? "results-category results-large" : "results-category"}
      aria-labelledby={titleId}
    >
      <Heading id={titleId} className="results-title">
        {category.name}
      </Heading>
      <p className="category-badges">
        <span className="badge">{category.formatLabel}</span>
        <span className={category.final ? "badge results-final" : "badge"}>
          {category.final ? "Resultados finales" : "En curso"}
        </span>
      </p>
      {results.rows.length === 0 ? (
        <p className="muted">Aún no hay equipos en competencia.</p>
      ) : (
        <Ranking results={results} large={large} />
      )}
      {category.format === "llaves" ? <BracketMatches results={results} /> : null}
      {large ? null : (
        <p className="results-rule">
          <strong>Desempate: {category.tieRuleLabel}.</strong> {category.tieRuleExplain}
        </p>
      )}
    </section>
  );
}
