// An event's participants and waiting list, with counts, the CSV download and marking who came.
// Admins only (§6): visitors go to /login, members are refused.
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Field } from "~/ui/field";
import { parseForm, type FieldErrors } from "~/kernel/forms";
import { MAIL_SUBJECT_MAX, MAIL_TEXT_MAX } from "~/kernel/limits";
import { ParticipantsMessageSchema } from "~/mail/schemas";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { queueParticipantsMessage } from "~/mail/mail.server";
import { AlertDialog } from "~/ui/dialog";
import { EmptyState } from "~/ui/item-card";
import { ErrorPage } from "~/error-page";
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { formatDateTime } from "~/kernel/time";
import { hasEnded } from "~/events/event.server";
import { requireAdmin } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { listAttendance, setCheckedIn } from "~/attendance/attendance.server";
import type { Route } from "./+types/participants";
import { redirectWithFlash } from "~/flash.server";
import { answerRefusal } from "~/kernel/errors";

/** How many a message reached, carried across the redirect after sending it. */
function sentReport(request: Request) {
  const params = new URL(request.url).searchParams;
  const queued = params.get("enviado");
  const optedOut = params.get("sinCorreo");
  if (queued === null || !/^\d{1,6}$/.test(queued)) return null;
  return {
    queued: Number(queued),
    optedOut: optedOut !== null && /^\d{1,6}$/.test(optedOut) ? Number(optedOut) : 0,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const attendance = await listAttendance(context.db, admin, params.eventId);
  if (!attendance) notFound(MESSAGES.eventNotFound);
  const { event, participants, waiting } = attendance;
  return data(
    {
      sent: sentReport(request),
      timeZone: context.config.siteTimezone,
      event: { ...event, startsAt: event.startsAt.toISOString() },
      // Certificates of attendance exist for those checked in, once the event has ended.
      ended: hasEnded(event, context.now()),
      participants: participants.map((p) => ({
        userId: p.userId,
        nombre: p.nombre,
        email: p.email,
        ciudad: p.ciudad,
        joinedAt: p.joinedAt.toISOString(),
        checkedInAt: p.checkedInAt?.toISOString() ?? null,
      })),
      waiting: waiting.map((w) => ({
        userId: w.userId,
        nombre: w.nombre,
        email: w.email,
        createdAt: w.createdAt.toISOString(),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "sendMessage") return sendMessage(params.eventId, admin, form, context);
  if (intent !== "checkIn" && intent !== "undoCheckIn") {
    return data({ message: MESSAGES.participationFailed }, { status: 400 });
  }
  try {
    await setCheckedIn(context.db, admin, params.eventId, form.get("userId"), intent === "checkIn");
  } catch (error) {
    return answerRefusal(error);
  }
  return redirectWithFlash(
    context,
    `/admin/eventos/${params.eventId}/participantes`,
    intent === "checkIn" ? "checkedIn" : "checkInUndone",
  );
}

/** 'Enviar mensaje a los participantes': queued, then the page says to how many. */
async function sendMessage(
  eventId: string,
  admin: Awaited<ReturnType<typeof requireAdmin>>,
  form: FormData,
  context: Route.ActionArgs["context"],
) {
  const result = parseForm(ParticipantsMessageSchema, form);
  if (!result.ok) {
    return data(
      {
        intent: "sendMessage" as const,
        fieldErrors: result.fieldErrors,
        formError: result.formError,
        values: result.values,
      },
      { status: 400 },
    );
  }
  let report: { queued: number; optedOut: number };
  try {
    report = await queueParticipantsMessage(context.db, admin, eventId, result.data);
  } catch (error) {
    return answerRefusal(error);
  }
  return redirect(
    `/admin/eventos/${eventId}/participantes?enviado=${report.queued}&sinCorreo=${report.optedOut}#mensaje-title`,
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    {
      title: loaderData
        ? `Participantes: ${loaderData.event.nombreEvento} — Ayllu`
        : "Participantes — Ayllu",
    },
    { name: "robots", content: "noindex" },
  ];
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export default function Participants({ loaderData, actionData }: Route.ComponentProps) {
  const { event, participants, waiting, timeZone, ended, sent } = loaderData;
  const navigation = useNavigation();
  const messageResult =
    actionData && "intent" in actionData && actionData.intent === "sendMessage"
      ? actionData
      : undefined;
  const busy = navigation.state !== "idle";
  const present = participants.filter((p) => p.checkedInAt !== null).length;
  return (
    <div className="page">
      <p className="eyebrow">
        <Link to="/admin">← Volver al panel</Link>
      </p>
      <h1 id="attendance-title">Participantes: {event.nombreEvento}</h1>
      <p className="lead">
        <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
      </p>
      <ul className="badge-list" aria-label="Resumen">
        <li className="badge">
          {event.capacity === null
            ? plural(participants.length, "participante", "participantes")
            : `${participants.length} de ${plural(event.capacity, "plaza ocupada", "plazas ocupadas")}`}
        </li>
        <li className="badge">
          {plural(waiting.length, "en lista de espera", "en lista de espera")}
        </li>
        <li className="badge">{plural(present, "asistió", "asistieron")}</li>
      </ul>
      <p className="button-row">
        <Link className="button" to={`/admin/eventos/${event.id}/registro`}>
          Registro en la puerta
        </Link>
        <a
          className="button button-secondary"
          href={`/admin/eventos/${event.id}/participantes.csv`}
          download
        >
          Descargar CSV
        </a>
        <Link className="button button-ghost" to={`/detalles/${event.id}`}>
          Ver el evento
        </Link>
      </p>

      <section className="card" aria-labelledby="participants-title">
        <h2 id="participants-title">
          Participantes <span className="muted">({participants.length})</span>
        </h2>
        {participants.length === 0 ? (
          <EmptyState title="Nadie participa en este evento todavía." />
        ) : (
          <ol className="admin-event-list">
            {participants.map((p) => (
              <li key={p.userId}>
                <div>
                  <strong>{p.nombre}</strong>
                  <span className="user-email">{p.email}</span>
                  <span className="muted">
                    {p.ciudad ? `${p.ciudad} · ` : ""}Inscrito el{" "}
                    {formatDateTime(p.joinedAt, timeZone)}
                  </span>
                  {p.checkedInAt ? (
                    <span>Asistió · {formatDateTime(p.checkedInAt, timeZone)}</span>
                  ) : null}
                </div>
                <Form method="post" className="row-actions">
                  {ended && p.checkedInAt ? (
                    <a
                      className="button button-secondary button-small"
                      href={`/admin/eventos/${event.id}/participantes/${p.userId}/certificado.pdf`}
                      download
                      aria-label={`Descargar el certificado de ${p.nombre}`}
                    >
                      Certificado
                    </a>
                  ) : null}
                  <input type="hidden" name="userId" value={p.userId} />
                  {p.checkedInAt ? (
                    <button
                      type="submit"
                      name="intent"
                      value="undoCheckIn"
                      className="button button-ghost button-small"
                      disabled={busy}
                      aria-label={`Quitar la asistencia de ${p.nombre}`}
                    >
                      Quitar asistencia
                    </button>
                  ) : (
                    <button
                      type="submit"
                      name="intent"
                      value="checkIn"
                      className="button button-small"
                      disabled={busy}
                      aria-label={`Marcar presente a ${p.nombre}`}
                    >
                      Marcar presente
                    </button>
                  )}
                </Form>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="card" aria-labelledby="waiting-title">
        <h2 id="waiting-title">
          Lista de espera <span className="muted">({waiting.length})</span>
        </h2>
        {waiting.length === 0 ? (
          <EmptyState title="Nadie está en la lista de espera." />
        ) : (
          <ol className="admin-event-list">
            {waiting.map((w, i) => (
              <li key={w.userId}>
                <div>
                  <strong>
                    {i + 1}. {w.nombre}
                  </strong>
                  <span className="user-email">{w.email}</span>
                  <span className="muted">Desde el {formatDateTime(w.createdAt, timeZone)}</span>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
      <MessageForm
        participants={participants.length}
        waiting={waiting.length}
        sent={sent}
        result={messageResult}
        busy={busy}
      />
      {actionData && "message" in actionData && actionData.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}

function MessageForm({
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
      <Form method="post" noValidate className="form" ref={formRef}>
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
