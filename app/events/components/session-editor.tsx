// 'Sesiones' on an event's management page (decision 043): the sessions as they are, and plain
// POST forms (they work without JavaScript) to add one, generate several by a rule, change one
// or cancel one. The server decides everything; these forms only show its answer again.
import { Form, Link, useNavigation } from "react-router";
import { formatDateTimeRange } from "~/kernel/time";
import { EVENT_SESSIONS_MAX } from "~/kernel/limits";
import { Field } from "~/ui/field";
import { eventLinkLabel } from "~/events/event-place";
import { SessionWhen } from "~/events/components/session-when";

export interface SessionItem {
  id: string;
  startsAt: string;
  endsAt: string;
  fecha: string;
  inicio: string;
  fin: string;
  place: string | null;
  link: string | null;
  cancelled: boolean;
}

/** The server's answer to a refused session form: the message, its field, and what was typed. */
export interface EventSessionReply {
  intent: string;
  message?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** Monday first, as the week reads in Spanish; the value is JavaScript's getUTCDay(). */
const WEEKDAYS = [
  { value: "1", label: "Lunes" },
  { value: "2", label: "Martes" },
  { value: "3", label: "Miércoles" },
  { value: "4", label: "Jueves" },
  { value: "5", label: "Viernes" },
  { value: "6", label: "Sábado" },
  { value: "0", label: "Domingo" },
] as const;

function value(reply: EventSessionReply | null, name: string, fallback = ""): string {
  const v = reply?.values?.[name];
  return typeof v === "string" ? v : fallback;
}

/** The date and place fields one session's forms share (add, change). */
function SessionFields({
  prefix,
  reply,
  defaults,
}: {
  prefix: string;
  reply: EventSessionReply | null;
  defaults: { fecha: string; inicio: string; fin: string; lugar: string; enlace: string };
}) {
  const errors = reply?.fieldErrors ?? {};
  return (
    <>
      <div className="field-row">
        <Field id={`${prefix}-fecha`} name="fecha" label="Fecha" required error={errors.fecha}>
          {(control) => (
            <input {...control} type="date" defaultValue={value(reply, "fecha", defaults.fecha)} />
          )}
        </Field>
        <Field
          id={`${prefix}-inicio`}
          name="inicio"
          label="Hora de inicio"
          required
          error={errors.inicio}
        >
          {(control) => (
            <input
              {...control}
              type="time"
              defaultValue={value(reply, "inicio", defaults.inicio)}
            />
          )}
        </Field>
        <Field id={`${prefix}-fin`} name="fin" label="Hora de fin" required error={errors.fin}>
          {(control) => (
            <input {...control} type="time" defaultValue={value(reply, "fin", defaults.fin)} />
          )}
        </Field>
      </div>
      <PlaceFields prefix={prefix} reply={reply} defaults={defaults} />
    </>
  );
}

function PlaceFields({
  prefix,
  reply,
  defaults,
}: {
  prefix: string;
  reply: EventSessionReply | null;
  defaults: { lugar: string; enlace: string };
}) {
  const errors = reply?.fieldErrors ?? {};
  return (
    <div className="field-row">
      <Field
        id={`${prefix}-lugar`}
        name="lugar"
        label="Lugar de la sesión"
        error={errors.lugar}
        hint="Opcional: si no es el del evento."
      >
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={200}
            defaultValue={value(reply, "lugar", defaults.lugar)}
          />
        )}
      </Field>
      <Field
        id={`${prefix}-enlace`}
        name="enlace"
        label="Enlace de la sesión"
        error={errors.enlace}
        hint="Opcional: https://…"
      >
        {(control) => (
          <input
            {...control}
            type="url"
            inputMode="url"
            maxLength={2000}
            defaultValue={value(reply, "enlace", defaults.enlace)}
          />
        )}
      </Field>
    </div>
  );
}

export function SessionEditor({
  sessions,
  editing,
  reply,
  timeZone,
  base,
}: {
  sessions: readonly SessionItem[];
  /** The session whose form is open (`?sesion=`), if any. */
  editing: string | null;
  reply: EventSessionReply | null;
  timeZone: string;
  base: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const live = sessions.filter((s) => !s.cancelled).length;
  const replyOf = (intent: string) => (reply?.intent === intent ? reply : null);
  // A refused change keeps its form open, also when it was posted from elsewhere.
  const open = editing ?? value(replyOf("updateSession"), "sessionId", "");
  const editingSession = sessions.find((s) => s.id === open && !s.cancelled) ?? null;
  const generate = replyOf("generateSessions");
  const generateErrors = generate?.fieldErrors ?? {};
  const chosenDays = Array.isArray(generate?.values?.dias)
    ? (generate.values.dias as string[])
    : ["6"];
  const rule = value(generate, "regla", "laborables");
  // A refusal that is about no one field (too many sessions, an unknown one) reads at the top.
  const general = reply?.message && !reply.fieldErrors ? reply.message : null;
  return (
    <section className="card session-editor" aria-labelledby="sesiones-title">
      <h2 id="sesiones-title">Sesiones</h2>
      <p className="muted">
        Un curso o un club se reúne varias veces: cada sesión tiene su fecha y su horario, y puede
        tener su propio lugar o enlace. El inicio y el fin del evento son los de su primera y su
        última sesión. Hasta {EVENT_SESSIONS_MAX} sesiones.
      </p>
      {general ? (
        <p className="field-error" role="alert">
          {general}
        </p>
      ) : null}
      <ol className="plain-list session-list">
        {sessions.map((s) => (
          <li key={s.id} className={s.cancelled ? "session-cancelled" : undefined}>
            <SessionWhen session={s} timeZone={timeZone} />
            {s.place || s.link ? (
              <span className="muted session-where">
                {[s.place, s.link ? eventLinkLabel(s.link) : null].filter(Boolean).join(" · ")}
              </span>
            ) : null}
            {s.cancelled ? null : (
              <span className="button-row session-actions">
                <Link
                  className="button button-secondary button-small"
                  to={`${base}?sesion=${s.id}#sesion-editar-title`}
                  preventScrollReset
                >
                  Cambiar
                  <span className="visually-hidden">
                    {" "}
                    la sesión del {formatDateTimeRange(s.startsAt, s.endsAt, timeZone)}
                  </span>
                </Link>
                {live > 1 ? (
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="cancelSession" />
                    <input type="hidden" name="sessionId" value={s.id} />
                    <button
                      type="submit"
                      className="button button-danger button-small"
                      disabled={busy}
                    >
                      Cancelar
                      <span className="visually-hidden">
                        {" "}
                        la sesión del {formatDateTimeRange(s.startsAt, s.endsAt, timeZone)}
                      </span>
                    </button>
                  </Form>
                ) : null}
              </span>
            )}
          </li>
        ))}
      </ol>

      {editingSession ? (
        <Form method="post" className="session-form" preventScrollReset>
          <h3 id="sesion-editar-title">Cambiar la sesión</h3>
          <input type="hidden" name="intent" value="updateSession" />
          <input type="hidden" name="sessionId" value={editingSession.id} />
          <SessionFields
            prefix="sesion-editar"
            reply={replyOf("updateSession")}
            defaults={{
              fecha: editingSession.fecha,
              inicio: editingSession.inicio,
              fin: editingSession.fin,
              lugar: editingSession.place ?? "",
              enlace: editingSession.link ?? "",
            }}
          />
          <div className="form-actions button-row">
            <button type="submit" className="button" disabled={busy}>
              Guardar sesión
            </button>
            <Link className="button button-ghost" to={`${base}#sesiones-title`} preventScrollReset>
              Volver
            </Link>
          </div>
        </Form>
      ) : null}

      {/* Empty again once a session was added (a second tap would add it twice). */}
      <Form
        key={`nueva-${sessions.length}`}
        method="post"
        className="session-form"
        preventScrollReset
      >
        <h3 id="sesion-nueva-title">Agregar una sesión</h3>
        <input type="hidden" name="intent" value="addSession" />
        <SessionFields
          prefix="sesion-nueva"
          reply={replyOf("addSession")}
          defaults={{ fecha: "", inicio: "", fin: "", lugar: "", enlace: "" }}
        />
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={busy}>
            Agregar sesión
          </button>
        </div>
      </Form>

      <Form
        key={`regla-${sessions.length}`}
        method="post"
        className="session-form"
        preventScrollReset
      >
        <h3 id="sesion-regla-title">Generar sesiones</h3>
        <input type="hidden" name="intent" value="generateSessions" />
        <fieldset className="check-list">
          <legend>Regla</legend>
          <label className="check">
            <input
              type="radio"
              name="regla"
              value="laborables"
              defaultChecked={rule !== "semanal"}
            />
            <span>De lunes a viernes, entre dos fechas</span>
          </label>
          <label className="check">
            <input type="radio" name="regla" value="semanal" defaultChecked={rule === "semanal"} />
            <span>Los días elegidos, durante unas semanas</span>
          </label>
        </fieldset>
        <div className="field-row">
          <Field id="regla-desde" name="desde" label="Desde" required error={generateErrors.desde}>
            {(control) => (
              <input {...control} type="date" defaultValue={value(generate, "desde")} />
            )}
          </Field>
          <Field
            id="regla-hasta"
            name="hasta"
            label="Hasta"
            error={generateErrors.hasta}
            hint="De lunes a viernes: el último día."
          >
            {(control) => (
              <input {...control} type="date" defaultValue={value(generate, "hasta")} />
            )}
          </Field>
          <Field
            id="regla-semanas"
            name="semanas"
            label="Semanas"
            error={generateErrors.semanas}
            hint="Días elegidos: cuántas semanas desde la primera fecha."
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                max={EVENT_SESSIONS_MAX}
                defaultValue={value(generate, "semanas", "4")}
              />
            )}
          </Field>
        </div>
        <fieldset
          className="check-list session-days"
          aria-describedby={generateErrors.dias ? "regla-dias-error" : undefined}
        >
          <legend>Días (para «los días elegidos»)</legend>
          {WEEKDAYS.map((d) => (
            <label key={d.value} className="check">
              <input
                type="checkbox"
                name="dias"
                value={d.value}
                defaultChecked={chosenDays.includes(d.value)}
              />
              <span>{d.label}</span>
            </label>
          ))}
          {generateErrors.dias ? (
            <p className="field-error" id="regla-dias-error">
              {generateErrors.dias}
            </p>
          ) : null}
        </fieldset>
        <div className="field-row">
          <Field
            id="regla-inicio"
            name="inicio"
            label="Hora de inicio"
            required
            error={generateErrors.inicio}
          >
            {(control) => (
              <input {...control} type="time" defaultValue={value(generate, "inicio", "19:00")} />
            )}
          </Field>
          <Field
            id="regla-duracion"
            name="duracion"
            label="Duración (minutos)"
            required
            error={generateErrors.duracion}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={1}
                max={1440}
                defaultValue={value(generate, "duracion", "120")}
              />
            )}
          </Field>
        </div>
        <PlaceFields prefix="regla" reply={generate} defaults={{ lugar: "", enlace: "" }} />
        {generateErrors.regla ? (
          <p className="field-error" role="alert">
            {generateErrors.regla}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={busy}>
            Generar sesiones
          </button>
        </div>
      </Form>
    </section>
  );
}
