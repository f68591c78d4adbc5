// An event's participants and waiting list, with counts, the CSV download and marking who came.
// Admins only (§6): visitors go to /login, members are refused.
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { AlertDialog } from "~/components/dialog";
import { EmptyState } from "~/components/item-card";
import { ErrorPage } from "~/components/error-page";
import { MESSAGES } from "~/lib/messages";
import { notFound } from "~/lib/not-found";
import { formatDateTime } from "~/lib/time";
import { hasEnded } from "#server/models/event.server";
import { cookieSettings, requireAdmin } from "#server/auth/guards.server";
import { flashCookie } from "#server/auth/flash.server";
import { readForm } from "#server/http/read-form.server";
import {
  listAttendance,
  ParticipantNotFoundError,
  setCheckedIn,
} from "#server/models/attendance.server";
import type { Route } from "./+types/participants";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const attendance = await listAttendance(context.db, admin, params.eventId);
  if (!attendance) notFound(MESSAGES.eventNotFound);
  const { event, participants, waiting } = attendance;
  return data(
    {
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
  if (intent !== "checkIn" && intent !== "undoCheckIn") {
    return data({ message: MESSAGES.participationFailed }, { status: 400 });
  }
  try {
    await setCheckedIn(context.db, admin, params.eventId, form.get("userId"), intent === "checkIn");
  } catch (error) {
    if (error instanceof ParticipantNotFoundError) notFound(MESSAGES.participantNotFound);
    throw error;
  }
  return redirect(`/admin/eventos/${params.eventId}/participantes`, {
    headers: {
      "Set-Cookie": flashCookie(
        intent === "checkIn" ? "checkedIn" : "checkInUndone",
        cookieSettings(context).secure,
      ),
    },
  });
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
  const { event, participants, waiting, timeZone, ended } = loaderData;
  const navigation = useNavigation();
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
      {actionData?.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/admin", label: "Volver al panel" }} />;
}
