// 'Mi calendario' on the profile: the member's private calendar feed, shown once when made or
// renewed (only its hash is kept), and the button that makes or renews it.
import { Form } from "react-router";
import { Field } from "~/ui/field";

export function CalendarFeed({
  calendarLink,
  hasCalendarFeed,
  busy,
}: {
  calendarLink: string | undefined;
  hasCalendarFeed: boolean;
  busy: boolean;
}) {
  return (
    <section className="card" aria-labelledby="calendar-title">
      <h2 id="calendar-title">Mi calendario</h2>
      <p>
        Tus eventos en tu aplicación de calendario, con un enlace privado: quien lo tenga ve en qué
        eventos participas.
      </p>
      {calendarLink ? (
        <>
          <p role="status">
            Este es tu enlace. Cópialo ahora: por seguridad no lo volveremos a mostrar.
          </p>
          <Field id="calendar-link" name="calendarLink" label="Enlace privado del calendario">
            {(control) => <input {...control} type="url" readOnly value={calendarLink} />}
          </Field>
        </>
      ) : hasCalendarFeed ? (
        <p className="muted">
          Ya tienes un enlace privado. Si lo perdiste o alguien más lo tiene, renuévalo: el anterior
          dejará de funcionar.
        </p>
      ) : null}
      <Form method="post" action="/profile" className="form-actions">
        <input type="hidden" name="intent" value="renewCalendar" />
        {calendarLink ? (
          <a className="button" href={calendarLink.replace(/^https?:/, "webcal:")}>
            Suscribirse al calendario
          </a>
        ) : null}
        <button
          type="submit"
          className={calendarLink ? "button button-ghost" : "button button-secondary"}
          disabled={busy}
        >
          {hasCalendarFeed || calendarLink ? "Renovar enlace" : "Crear enlace del calendario"}
        </button>
      </Form>
    </section>
  );
}
