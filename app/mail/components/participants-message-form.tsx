// 'Enviar mensaje a los participantes' (/admin/eventos/:id/participantes): a subject and a text
// to everyone who takes part and, if the admin ticks it, to those who wait; then how many it reached.
import { Form, useLocation } from "react-router";
import type { FieldErrors } from "~/kernel/forms";
import { MAIL_SUBJECT_MAX, MAIL_TEXT_MAX } from "~/kernel/limits";
import { plural } from "~/kernel/plural";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { Field } from "~/ui/field";

export function ParticipantsMessageForm({
  participants,
  waiting,
  sent,
  result,
  busy,
}: {
  participants: number;
  waiting: number;
  sent: { queued: number; optedOut: number } | null;
  result:
    | { fieldErrors: FieldErrors; formError: string | null; values: Record<string, unknown> }
    | undefined;
  busy: boolean;
}) {
  const formRef = useFocusFirstError<HTMLFormElement>(result);
  // Each arrival on the page (the redirect after a message was queued among them) starts an empty
  // form: a second click does not send the same message again. A refusal does not navigate, so
  // what was typed stays.
  const { key: arrival } = useLocation();
  const errors = result?.fieldErrors ?? {};
  const value = (name: string) =>
    typeof result?.values[name] === "string" ? (result.values[name] as string) : "";
  return (
    <section className="card" aria-labelledby="mensaje-title">
      <h2 id="mensaje-title">Enviar mensaje a los participantes</h2>
      {sent ? (
        <p role="status" className="mail-sent">
          Mensaje en cola para {plural(sent.queued, "persona", "personas")}.
          {sent.optedOut > 0
            ? ` ${plural(sent.optedOut, "persona desactivó", "personas desactivaron")} los mensajes de los organizadores y no lo recibirá${sent.optedOut === 1 ? "" : "n"}.`
            : ""}
        </p>
      ) : null}
      <p className="muted">
        Un correo a {plural(participants, "participante", "participantes")}
        {waiting > 0
          ? ` (y, si lo marcas, a ${plural(waiting, "persona", "personas")} en lista de espera)`
          : ""}
        , con el evento adjunto. No lo recibe quien desactivó los mensajes de los organizadores.
      </p>
      <Form key={arrival} method="post" noValidate className="form" ref={formRef}>
        <Field id="mensaje-asunto" name="asunto" label="Asunto" required error={errors.asunto}>
          {(control) => (
            <input
              {...control}
              type="text"
              maxLength={MAIL_SUBJECT_MAX}
              defaultValue={value("asunto")}
            />
          )}
        </Field>
        <Field id="mensaje-texto" name="mensaje" label="Mensaje" required error={errors.mensaje}>
          {(control) => (
            <textarea
              {...control}
              rows={6}
              maxLength={MAIL_TEXT_MAX}
              defaultValue={value("mensaje")}
            />
          )}
        </Field>
        {waiting > 0 ? (
          <label className="check">
            <input
              type="checkbox"
              name="incluirEspera"
              value="1"
              defaultChecked={value("incluirEspera") === "1"}
            />
            <span>También a quienes esperan una plaza ({waiting})</span>
          </label>
        ) : null}
        {result?.formError || errors.incluirEspera ? (
          <p className="field-error" role="alert">
            {result?.formError ?? errors.incluirEspera}
          </p>
        ) : null}
        <div className="form-actions">
          <button
            type="submit"
            name="intent"
            value="sendMessage"
            className="button"
            disabled={busy || participants + waiting === 0}
          >
            Enviar mensaje
          </button>
        </div>
      </Form>
    </section>
  );
}
