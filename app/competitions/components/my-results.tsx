// A member's places in competitions on their profile (decision 060): each category
// where one of their teams is ranked, the team's members as the results name them ('Ana Q.'), and
// once the results are final, the certificate by place to download.
import { Link } from "react-router";
import { placeText } from "./results-view";

export interface MyResult {
  eventId: string;
  eventName: string;
  categoryId: string;
  category: string;
  teamId: string;
  team: string;
  members: string[];
  place: number | null;
  final: boolean;
  /** What the certificate states, once final: '1er lugar' … 'Participación'. */
  certificate: string | null;
  /** The certificate waits for a name on the profile. */
  needsName: boolean;
}

export function MyResults({ results }: { results: readonly MyResult[] }) {
  if (results.length === 0) return null;
  return (
    <section className="card" aria-labelledby="my-results-title" id="mis-resultados">
      <h2 id="my-results-title">Mis resultados en competencias</h2>
      <ul className="plain-list my-results">
        {results.map((r) => (
          <li key={`${r.categoryId}-${r.teamId}`} className="my-result">
            <p className="my-result-place">
              {r.place === null ? "Sin puesto" : placeText(r.place)}{" "}
              <span className="badge">{r.final ? "Final" : "En curso"}</span>
            </p>
            <p>
              <strong>{r.category}</strong> ·{" "}
              <Link to={`/detalles/${r.eventId}/resultados#resultados-${r.categoryId}`}>
                {r.eventName}
              </Link>
            </p>
            <p className="muted">
              Equipo <Link to={`/equipos/${r.teamId}`}>{r.team}</Link>: {r.members.join(", ")}
            </p>
            {r.certificate && r.needsName ? (
              <p>
                Tu certificado ({r.certificate}) necesita tu nombre: complétalo con 'Editar Perfil'.
              </p>
            ) : r.certificate ? (
              <a
                className="button button-small button-secondary"
                href={`/detalles/${r.eventId}/categorias/${r.categoryId}/certificado.pdf`}
              >
                Descargar certificado: {r.certificate}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
