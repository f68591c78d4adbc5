// The judge's screen of score sheets (decision 059): each team's points, field by field.
import type { JudgeBoard } from "~/competitions/judging/board.server";
import { pointsFieldName } from "~/competitions/judging/judge-entry";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import type { ShownSheet } from "~/competitions/judging/use-judge-sync";
import { pointsText } from "./results-view";
import { EntryForm, FieldError, STATE_WORDS, type OnEntry } from "./judge-entry-form";

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
            <div className="judge-inline">
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
            </div>
            <div className="judge-criteria">
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
            </div>
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
