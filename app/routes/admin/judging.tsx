// /admin/eventos/:eventId/categorias/:categoryId/resultados — one category on competition day, for
// its organisers (decision 060): the entries in conflict to decide, the results as they
// stand, the bracket's draw or seeding, how the category is judged, final and reopen, and the
// certificates by place once final. Every form works without JavaScript.
import { Form, Link } from "react-router";
import { CategoryResultsView } from "~/competitions/components/results-view";
import { ErrorPage } from "~/error-page";
import { requireEventMay } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { BackLink } from "~/ui/back-link";
import type { Route } from "./+types/judging";
import {
  judgingAction,
  loadJudging,
  type JudgingIntent,
  type JudgingReply,
} from "./judging.server";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireEventMay(request, context, "event.judging", params.eventId);
  return loadJudging(user, params.eventId, params.categoryId, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireEventMay(request, context, "event.judging", params.eventId);
  return judgingAction(params.eventId, params.categoryId, await readForm(request), user, context);
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: `Resultados: ${loaderData?.results.category.name ?? "categoría"} — Ayllu` },
    { name: "robots", content: "noindex" },
  ];
}

type Data = Route.ComponentProps["loaderData"];

function Refused({ reply, intent }: { reply: JudgingReply | null; intent: JudgingIntent }) {
  if (reply?.intent !== intent) return null;
  return (
    <p className="field-error" role="alert">
      {reply.message}
    </p>
  );
}

function Conflicts({ data, reply }: { data: Data; reply: JudgingReply | null }) {
  const { conflicts, final } = data;
  return (
    <section className="card judging-section" id="conflictos" aria-labelledby="conflictos-title">
      <h2 id="conflictos-title">Anotaciones en conflicto ({conflicts.length})</h2>
      {conflicts.length === 0 ? (
        <p>No hay anotaciones por decidir.</p>
      ) : (
        <>
          <p>
            Dos anotaciones distintas para la misma vuelta, ronda u hoja: cuenta la primera hasta
            que decidas. Todo queda en el registro de auditoría.
          </p>
          {reply?.intent === "decidir" && !conflicts.some((c) => c.id === reply.conflictId) ? (
            <Refused reply={reply} intent="decidir" />
          ) : null}
          <ul className="plain-list judging-conflicts">
            {conflicts.map((c) => (
              <li key={c.id} className="judging-conflict">
                <h3 id={`conflicto-${c.id}`}>{c.what}</h3>
                <dl className="judging-compare">
                  <div>
                    <dt>Cuenta ahora</dt>
                    <dd>{c.standing ?? "nada"}</dd>
                  </div>
                  <div>
                    <dt>
                      Segunda anotación, de {c.enteredByName} ({c.enteredAt})
                    </dt>
                    <dd>{c.proposed}</dd>
                  </div>
                </dl>
                {reply?.intent === "decidir" && reply.conflictId === c.id ? (
                  <Refused reply={reply} intent="decidir" />
                ) : null}
                {final ? null : (
                  <Form method="post" className="button-row" preventScrollReset>
                    <input type="hidden" name="intent" value="decidir" />
                    <input type="hidden" name="tipo" value={c.kind} />
                    <input type="hidden" name="conflicto" value={c.id} />
                    <button
                      type="submit"
                      name="decision"
                      value="aceptar"
                      className="button"
                      aria-describedby={`conflicto-${c.id}`}
                    >
                      Aceptar la segunda
                    </button>
                    <button
                      type="submit"
                      name="decision"
                      value="mantener"
                      className="button button-ghost"
                      aria-describedby={`conflicto-${c.id}`}
                    >
                      Mantener la primera
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Bracket({ data, reply }: { data: Data; reply: JudgingReply | null }) {
  const { draw, drawLocked, final } = data;
  // The teams competing now, in the draw's order where they were drawn.
  const teams = data.seeding;
  const locked = drawLocked || final !== null;
  return (
    <section className="card judging-section" id="llaves" aria-labelledby="llaves-title">
      <h2 id="llaves-title">Llaves</h2>
      <p>
        {draw
          ? draw.method === "sorteo"
            ? `Sorteadas por ${draw.by} el ${draw.at} con el número ${draw.seed}: con ese número el sorteo se puede repetir y da el mismo orden.`
            : `Sembradas por ${draw.by} el ${draw.at}.`
          : "Todavía no hay llaves. Sortéalas o siémbralas con los equipos que compiten (registrados en la puerta y con el robot aprobado)."}
      </p>
      {drawLocked ? (
        <p>{"Ya hay rondas anotadas: las llaves no se pueden armar de nuevo."}</p>
      ) : null}
      {final ? null : <Refused reply={reply} intent="sortear" />}
      {locked ? null : (
        <>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="sortear" />
            <button type="submit" className="button">
              {draw ? "Sortear de nuevo" : "Sortear llaves"}
            </button>
          </Form>
          <Form method="post" className="judging-seeding" preventScrollReset>
            <input type="hidden" name="intent" value="sembrar" />
            <fieldset>
              <legend>Sembrar: el orden de cada equipo (1 es el mejor sembrado)</legend>
              {teams.length < 2 ? (
                <p>Hacen falta al menos dos equipos en competencia.</p>
              ) : (
                <ol className="plain-list judging-seeds">
                  {teams.map((t, i) => (
                    <li key={t.teamId}>
                      <input type="hidden" name="equipo" value={t.teamId} />
                      <label htmlFor={`posicion-${t.teamId}`}>{t.team}</label>
                      <select
                        id={`posicion-${t.teamId}`}
                        name="posicion"
                        defaultValue={String(i + 1)}
                      >
                        {teams.map((_, p) => (
                          <option key={p} value={p + 1}>
                            {p + 1}
                          </option>
                        ))}
                      </select>
                    </li>
                  ))}
                </ol>
              )}
            </fieldset>
            <Refused reply={reply} intent="sembrar" />
            {teams.length < 2 ? null : (
              <button type="submit" className="button button-ghost">
                Sembrar en este orden
              </button>
            )}
          </Form>
        </>
      )}
    </section>
  );
}

function Rules({ data, reply }: { data: Data; reply: JudgingReply | null }) {
  const { results, tieRules, final, criteriaLocked } = data;
  const { category } = results;
  const disabled = final !== null;
  // Without scripts there is no 'add a row': the criteria there are, and three blank rows.
  const rows = [
    ...category.criteria,
    ...Array.from({ length: Math.min(3, data.criteriaMax - category.criteria.length) }, () => null),
  ];
  return (
    <section className="card judging-section" id="como-se-juzga" aria-labelledby="reglas-title">
      <h2 id="reglas-title">Cómo se juzga</h2>
      {disabled ? <p>Reabre los resultados para cambiar cómo se juzga.</p> : null}
      <Form method="post" className="judging-rules" preventScrollReset>
        <input type="hidden" name="intent" value="reglas" />
        <fieldset disabled={disabled}>
          <legend>Regla de desempate</legend>
          {tieRules.map((r) => (
            <label key={r.value} className="judging-choice">
              <input
                type="radio"
                name="desempate"
                value={r.value}
                defaultChecked={r.value === category.tieRule}
                required
              />
              {r.label}
            </label>
          ))}
        </fieldset>
        {category.format === "tiempo" ? (
          <fieldset disabled={disabled}>
            <legend>Vueltas</legend>
            <label htmlFor="vueltas">Vueltas de cada equipo (cuenta la mejor)</label>
            <input
              id="vueltas"
              name="vueltas"
              type="number"
              inputMode="numeric"
              min={1}
              max={data.attemptsMax}
              required
              defaultValue={category.attempts}
            />
          </fieldset>
        ) : null}
        {category.format === "puntaje" ? (
          <fieldset disabled={disabled || criteriaLocked}>
            <legend>Criterios de la hoja de puntaje</legend>
            {criteriaLocked ? (
              <p>Ya hay hojas de puntaje anotadas: los criterios no se pueden cambiar.</p>
            ) : (
              <p className="muted">
                Hasta {data.criteriaMax} criterios, cada uno con su puntaje máximo (1 a{" "}
                {data.pointsMax}). Deja una fila vacía para no usarla.
              </p>
            )}
            <ol className="plain-list judging-criteria">
              {rows.map((c, i) => (
                <li key={c?.id ?? `nuevo-${i}`}>
                  <label htmlFor={`criterio-${i}`}>Criterio {i + 1}</label>
                  <input
                    id={`criterio-${i}`}
                    name="criterio"
                    type="text"
                    maxLength={data.criterionNameMax}
                    defaultValue={c?.name ?? ""}
                  />
                  <label htmlFor={`maximo-${i}`}>
                    Máximo<span className="visually-hidden"> del criterio {i + 1}</span>
                  </label>
                  <input
                    id={`maximo-${i}`}
                    name="maximo"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={data.pointsMax}
                    defaultValue={c?.max ?? ""}
                  />
                </li>
              ))}
            </ol>
          </fieldset>
        ) : null}
        <Refused reply={reply} intent="reglas" />
        {disabled ? null : (
          <button type="submit" className="button">
            Guardar cómo se juzga
          </button>
        )}
      </Form>
    </section>
  );
}

function Final({ data, reply }: { data: Data; reply: JudgingReply | null }) {
  const { final, conflicts } = data;
  return (
    <section className="card judging-section" id="final" aria-labelledby="final-title">
      <h2 id="final-title">Resultados finales</h2>
      {final ? (
        <>
          <p>
            Finales desde el {final.at}, por {final.by}. Nadie puede anotar ni corregir hasta que
            los reabras; los certificados por puesto están disponibles.
          </p>
          <Refused reply={reply} intent="reabrir" />
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="reabrir" />
            <input type="hidden" name="visto" value={final.seen} />
            <button type="submit" className="button button-ghost">
              Reabrir resultados
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>
            Al marcarlos como finales nadie puede anotar ni corregir, y los integrantes de cada
            equipo reciben su certificado: 1er, 2do o 3er lugar, o de participación.
            {conflicts.length > 0
              ? conflicts.length === 1
                ? " Queda 1 anotación en conflicto: decídela antes."
                : ` Quedan ${conflicts.length} anotaciones en conflicto: decídelas antes.`
              : ""}
          </p>
          <Refused reply={reply} intent="final" />
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="final" />
            <button type="submit" className="button">
              Marcar resultados como finales
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

function Certificates({ data }: { data: Data }) {
  const { awards, results } = data;
  if (!awards) return null;
  const base = `/admin/eventos/${results.category.eventId}/categorias/${results.category.id}`;
  return (
    <section className="card judging-section" id="certificados" aria-labelledby="cert-title">
      <h2 id="cert-title">Certificados</h2>
      <p>
        Cada integrante los descarga desde su perfil; se verifican con el código o el QR impreso.
      </p>
      {awards.length === 0 ? <p>Ningún equipo tiene puesto en esta categoría.</p> : null}
      {awards.length === 0 ? null : (
        <ul className="plain-list judging-awards">
          {awards.map((t) => (
            <li key={t.teamId}>
              <h3>
                {t.team}: {t.label}
              </h3>
              <ul>
                {t.members.map((m) => (
                  <li key={m.userId}>
                    {m.name ?? "Integrante sin nombre en su perfil"} —{" "}
                    {m.name ? (
                      <a href={`${base}/certificados/${m.userId}/certificado.pdf`}>
                        Descargar certificado<span className="visually-hidden"> de {m.name}</span>
                      </a>
                    ) : (
                      "sin certificado hasta que complete su nombre"
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Whether a refusal shows beside its form: the form must be on the page. Otherwise (a double
 * submit, a form from a page that changed since) it shows at the top.
 */
function shownInPlace(reply: JudgingReply, data: Data): boolean {
  const bracket = data.results.category.format === "llaves";
  switch (reply.intent) {
    case "reglas":
      return true;
    case "sortear":
      return bracket && data.final === null;
    case "sembrar":
      return bracket && data.final === null && !data.drawLocked;
    case "decidir":
      return data.conflicts.length > 0;
    case "final":
      return data.final === null;
    case "reabrir":
      return data.final !== null;
    default:
      return false;
  }
}

export default function Judging({ loaderData, actionData }: Route.ComponentProps) {
  const data = loaderData;
  const reply = (actionData ?? null) as JudgingReply | null;
  const { category } = data.results;
  return (
    <div className="page judging">
      <BackLink to={`/admin/eventos/${category.eventId}/categorias`} label="Categorías" />
      <h1>Resultados: {category.name}</h1>
      <p className="muted">{category.eventName}</p>
      <p className="category-badges">
        <span className="badge">{category.formatLabel}</span>
        <span className={data.final ? "badge results-final" : "badge"}>
          {data.final ? "Resultados finales" : "En curso"}
        </span>
        {data.conflicts.length > 0 ? (
          <span className="badge door-badge-bad">{data.conflicts.length} en conflicto</span>
        ) : null}
      </p>
      {reply && !shownInPlace(reply, data) ? (
        <p className="field-error" role="alert">
          {reply.message}
        </p>
      ) : null}
      <p className="button-row">
        <Link
          className="button button-ghost"
          to={`/detalles/${category.eventId}/resultados#resultados-${category.id}`}
        >
          Resultados públicos
        </Link>
        <Link
          className="button button-ghost"
          to={`/detalles/${category.eventId}/resultados/pantalla`}
        >
          Pantalla para proyector
        </Link>
      </p>
      {/* At a desktop's width, two columns: what to act on and how it stands on the left, the
          category's settings on the right. On a phone, one column in the same order. */}
      <div className="judging-layout">
        <div className="judging-main">
          {data.conflicts.length > 0 ? <Conflicts data={data} reply={reply} /> : null}
          <section className="card judging-section" aria-labelledby="actuales-title">
            <h2 id="actuales-title">Cómo van</h2>
            <CategoryResultsView results={data.results} headingLevel={3} />
          </section>
          {category.format === "llaves" ? <Bracket data={data} reply={reply} /> : null}
        </div>
        <div className="judging-side">
          <Rules data={data} reply={reply} />
          {data.conflicts.length === 0 ? <Conflicts data={data} reply={reply} /> : null}
          <Final data={data} reply={reply} />
          <Certificates data={data} />
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
