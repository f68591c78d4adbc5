// /correo/baja/:token/:tema — the unsubscribe link of every mail (docs/decisions/021-mail.md).
// No sign-in: the token is the proof. A GET (someone clicking the link, or a scanner following it)
// only asks; a POST turns the topic off: the button here, or a mail program's one-click POST
// (List-Unsubscribe-Post, RFC 8058), which carries no cookie and no Origin of this site.
import { data, Form, Link, useNavigation } from "react-router";
import { ErrorPage } from "~/error-page";
import { ALL_TOPICS, isMailTopic, MAIL_TOPIC_LABELS } from "~/mail/topics";
import { MAIL_MESSAGES } from "~/mail/messages";
import { notFound } from "~/kernel/not-found";
import { readForm } from "~/kernel/read-form.server";
import { isUnsubscribeLink, unsubscribe } from "~/mail/mail.server";
import type { Route } from "./+types/unsubscribe";

/** Personal: never kept by the page cache or a proxy. */
const PRIVATE = { "Cache-Control": "private, no-store" };

export function headers() {
  return PRIVATE;
}

/** What the link stops, in words. */
function topicText(topic: string): string {
  return isMailTopic(topic)
    ? MAIL_TOPIC_LABELS[topic].toLowerCase()
    : "todos los correos de la comunidad";
}

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!(await isUnsubscribeLink(context.db, params.token, params.tema)))
    notFound(MAIL_MESSAGES.unsubscribeInvalid);
  return data({ topic: topicText(params.tema), done: false }, { headers: PRIVATE });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  await readForm(request);
  if (!(await unsubscribe(context.db, params.token, params.tema)))
    notFound(MAIL_MESSAGES.unsubscribeInvalid);
  return data({ topic: topicText(params.tema), done: true }, { headers: PRIVATE });
}

export function meta() {
  return [{ title: "Darse de baja — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function Unsubscribe({ loaderData, actionData, params }: Route.ComponentProps) {
  const { topic, done } = actionData ?? loaderData;
  const navigation = useNavigation();
  return (
    <section className="page page-narrow" aria-labelledby="unsubscribe-title">
      <div className="card">
        {done ? (
          <>
            <h1 id="unsubscribe-title">Listo, te diste de baja</h1>
            <p role="status">
              Ya no te enviaremos {topic}.{" "}
              {params.tema === ALL_TOPICS
                ? "Ningún tipo de correo queda activo."
                : "Los demás correos siguen como los elegiste."}
            </p>
            <p className="muted">
              Si cambias de opinión, vuelve a activarlos en la sección Correos de tu perfil.
            </p>
            <p className="form-actions">
              <Link to="/profile" className="button button-secondary">
                Ir a mi perfil
              </Link>
              <Link to="/inicio" className="button button-ghost">
                Volver al inicio
              </Link>
            </p>
          </>
        ) : (
          <>
            <h1 id="unsubscribe-title">Darse de baja</h1>
            <p>
              ¿Quieres dejar de recibir <strong>{topic}</strong>?
            </p>
            <Form method="post" className="form-actions">
              <input type="hidden" name="List-Unsubscribe" value="One-Click" />
              <button type="submit" className="button" disabled={navigation.state !== "idle"}>
                Darme de baja
              </button>
              <Link to="/inicio" className="button button-ghost">
                No, volver al inicio
              </Link>
            </Form>
            <p className="muted">
              También puedes elegir uno por uno qué correos recibes en tu perfil.
            </p>
          </>
        )}
      </div>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
