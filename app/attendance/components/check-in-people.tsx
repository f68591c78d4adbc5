import { useState } from "react";
import { Avatar } from "~/ui/avatar";
import { Field } from "~/ui/field";
import { EmptyState } from "~/ui/item-card";
import { zonedDateTime } from "~/kernel/time";
import type { CheckInPerson } from "~/attendance/check-in";

/** A name without accents or case, so that "maria" finds "María". */
function folded(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();
}

/**
 * The event's participants, who has come and when. Once the page's script has the list (`local`),
 * a search by name and, while the door is `open`, a button to mark each one present.
 */
export function CheckInPeople({
  people,
  local,
  open,
  timeZone,
  onMark,
}: {
  people: CheckInPerson[];
  local: boolean;
  open: boolean;
  timeZone: string;
  onMark: (person: CheckInPerson) => void;
}) {
  const [search, setSearch] = useState("");
  const wanted = folded(search.trim());
  const listed = wanted ? people.filter((p) => folded(p.nombre).includes(wanted)) : people;

  return (
    <section className="card" aria-labelledby="checkin-people-title">
      <h2 id="checkin-people-title">
        Participantes <span className="muted">({people.length})</span>
      </h2>
      {people.length === 0 ? (
        <EmptyState title="Nadie participa en este evento todavía." />
      ) : (
        <>
          {local ? (
            <Field id="checkin-search" name="buscar" label="Buscar por nombre">
              {(control) => (
                <input
                  {...control}
                  type="search"
                  autoComplete="off"
                  value={search}
                  onChange={(change) => setSearch(change.target.value)}
                />
              )}
            </Field>
          ) : null}
          <ul className="admin-checkin-people">
            {listed.map((p) => (
              <li key={p.userId}>
                <Avatar name={p.nombre} photoURL={p.photoURL} size={32} />
                <span className="admin-checkin-name">{p.nombre}</span>
                {p.notValid && !p.checkedInAt ? (
                  <span className="badge admin-checkin-not-valid">{p.notValid}</span>
                ) : p.checkedInAt ? (
                  <span className="badge admin-checkin-present">
                    Presente · {zonedDateTime(p.checkedInAt, timeZone).time}
                  </span>
                ) : local && open ? (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    onClick={() => onMark(p)}
                    aria-label={`Marcar presente a ${p.nombre}`}
                  >
                    Marcar presente
                  </button>
                ) : (
                  <span className="muted">Aún no llega</span>
                )}
              </li>
            ))}
          </ul>
          {listed.length === 0 ? <p className="muted">Nadie se llama así en este evento.</p> : null}
        </>
      )}
    </section>
  );
}
