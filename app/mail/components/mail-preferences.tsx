// 'Correos' on the profile: which kinds of mail the member wants (decision 021).
import { Form } from "react-router";
import {
  MAIL_TOPIC_LABELS,
  MAIL_TOPICS,
  TRANSACTIONAL_MAIL_LABELS,
  type MailTopic,
} from "~/mail/topics";
import { EmailAddress } from "~/ui/email-address";

export function MailPreferences({
  email,
  mailTopics,
  busy,
}: {
  email: string;
  mailTopics: readonly MailTopic[];
  busy: boolean;
}) {
  return (
    <section className="card" aria-labelledby="mail-title">
      <h2 id="mail-title">Correos</h2>
      <p>
        Te escribimos a{" "}
        <strong className="profile-mail-address">
          <EmailAddress email={email} />
        </strong>
        . Cada aviso y recordatorio trae también un enlace para darte de baja con un clic.
      </p>
      <Form method="post" action="/profile" className="form">
        <input type="hidden" name="intent" value="mailPreferences" />
        <fieldset className="check-list">
          <legend>Quiero recibir:</legend>
          {MAIL_TOPICS.map((topic) => (
            <label key={topic} className="check">
              <input
                type="checkbox"
                name="activos"
                value={topic}
                defaultChecked={mailTopics.includes(topic)}
              />
              <span>{MAIL_TOPIC_LABELS[topic]}</span>
            </label>
          ))}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button button-secondary" disabled={busy}>
            Guardar preferencias
          </button>
        </div>
      </Form>
      <h3 id="mail-transactional-title" className="mail-transactional-title">
        Correos de servicio
      </h3>
      <p>
        Estos se envían siempre, solo cuando tú haces algo que los necesita; no se pueden desactivar
        y no traen enlace de baja:
      </p>
      <ul aria-labelledby="mail-transactional-title">
        {TRANSACTIONAL_MAIL_LABELS.map((label) => (
          <li key={label}>{label}</li>
        ))}
      </ul>
    </section>
  );
}
