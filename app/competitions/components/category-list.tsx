// A competition's categories as its page shows them (decision 051): each with its level, team
// size, coach rule, the robot's rules and limits, fee, deadline, format and places left. Plain
// HTML, no script: the page works in light mode. `actions` adds the editor's buttons to each.
import type { ReactNode } from "react";
import { formatDateTime } from "~/kernel/time";
import { formatBs } from "~/payments/money";
import { categoryAnchor, FORMATS, LEVELS, teamSizeLabel, type PublicCategory } from "../categories";

function limitsLine(c: PublicCategory): string | null {
  const parts = [
    c.maxWeightGrams !== null ? `peso máximo ${c.maxWeightGrams.toLocaleString("es-BO")} g` : null,
    c.maxSizeCm !== null ? `tamaño máximo ${c.maxSizeCm} cm` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : null;
}

function placesLine(c: PublicCategory): string {
  if (c.placesLeft === null) return "Sin límite de equipos";
  if (c.placesLeft === 0)
    return c.waiting.length > 0
      ? `Sin lugares: ${c.waiting.length === 1 ? "1 equipo espera" : `${c.waiting.length} equipos esperan`}`
      : "Sin lugares: los equipos nuevos quedan en lista de espera";
  return c.placesLeft === 1
    ? `Queda 1 lugar de ${c.capacity}`
    : `Quedan ${c.placesLeft} lugares de ${c.capacity}`;
}

export function CategoryCard({
  category: c,
  timeZone,
  headingLevel = 3,
  register = false,
  children,
}: {
  category: PublicCategory;
  timeZone: string;
  headingLevel?: 2 | 3;
  /** Offer 'Inscribir un equipo' (the event's page). */
  register?: boolean;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const limits = limitsLine(c);
  const titleId = `${categoryAnchor(c.id)}-title`;
  return (
    <article className="category-card" id={categoryAnchor(c.id)} aria-labelledby={titleId}>
      <Heading id={titleId} className="category-name">
        {c.name}
      </Heading>
      <p className="category-badges">
        <span className="badge">{LEVELS[c.level]}</span>
        <span className="badge">{FORMATS[c.format]}</span>
      </p>
      <dl className="category-facts">
        <div>
          <dt>Equipos</dt>
          <dd>
            {teamSizeLabel(c.minMembers, c.maxMembers)}
            {c.coachRequired ? ", con un entrenador adulto" : ", sin entrenador obligatorio"}
          </dd>
        </div>
        <div>
          <dt>Cuota por equipo</dt>
          <dd>{c.feeCents === 0 ? "Gratis" : formatBs(c.feeCents)}</dd>
        </div>
        <div>
          <dt>Inscripciones hasta</dt>
          <dd>
            <time dateTime={c.registrationClosesAt}>
              {formatDateTime(c.registrationClosesAt, timeZone)}
            </time>
          </dd>
        </div>
        <div>
          <dt>Lugares</dt>
          <dd>{placesLine(c)}</dd>
        </div>
        {limits ? (
          <div>
            <dt>Límites del robot</dt>
            <dd>{limits}</dd>
          </div>
        ) : null}
      </dl>
      {c.robotRules ? (
        <div className="category-rules">
          <p className="category-rules-title">Reglas del robot</p>
          <p className="category-rules-text">{c.robotRules}</p>
        </div>
      ) : null}
      {c.teams.length === 0 ? (
        <p className="muted">Aún no hay equipos inscritos.</p>
      ) : (
        <div className="category-teams">
          <p className="category-rules-title">Equipos inscritos ({c.teams.length})</p>
          <ul className="plain-list category-team-list">
            {c.teams.map((t) => (
              <li key={t.id}>
                <a href={`/equipos/${t.id}`}>{t.name}</a>
                {t.status === "approved" ? " (aprobado)" : ""} — {t.school}, {t.city}
                {t.members.length > 0 ? (
                  <span className="category-team-members"> · {t.members.join(", ")}</span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      )}
      {c.waiting.length > 0 ? (
        <div className="category-teams">
          <p className="category-rules-title">Lista de espera ({c.waiting.length})</p>
          <ol className="category-team-list">
            {c.waiting.map((t) => (
              <li key={t.id}>
                <a href={`/equipos/${t.id}`}>{t.name}</a> — {t.school}, {t.city}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {register && !c.closed ? (
        <p>
          <a className="button button-secondary" href={`/equipos/nuevo?categoria=${c.id}`}>
            {c.placesLeft === 0 || c.waiting.length > 0
              ? "Anotar un equipo en la lista de espera"
              : "Inscribir un equipo"}
          </a>
        </p>
      ) : null}
      {children}
    </article>
  );
}

/** The 'Categorías' section of a competition's page. */
export function CategoryList({
  categories,
  timeZone,
  resultsHref,
}: {
  categories: readonly PublicCategory[];
  timeZone: string;
  /** The competition's results page (decision 058). */
  resultsHref?: string;
}) {
  return (
    <section className="event-categories" id="categorias" aria-labelledby="categorias-title">
      <h2 id="categorias-title">Categorías ({categories.length})</h2>
      <p className="muted">
        ¿Te invitaron a un equipo? Abre el enlace que te enviaron o{" "}
        <a href="/equipos/unirse">escribe el código</a>.
      </p>
      {resultsHref ? (
        <p>
          <a className="button button-secondary" href={resultsHref}>
            Resultados en vivo
          </a>
        </p>
      ) : null}
      <nav aria-label="Categorías de la competencia">
        <ul className="category-index">
          {categories.map((c) => (
            <li key={c.id}>
              <a href={`#${categoryAnchor(c.id)}`}>{c.name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="category-cards">
        {categories.map((c) => (
          <CategoryCard key={c.id} category={c} timeZone={timeZone} register />
        ))}
      </div>
    </section>
  );
}
