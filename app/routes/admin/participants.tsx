// An event's participants and waiting list, with counts, the CSV download and marking who came.
// Admins and the event's organisers: visitors go to /login, anyone else is refused. What it shows and what its forms
// do live in participants.server.ts; its parts in the attendance and mail domains.
import { Link, useNavigation } from "react-router";
import {
  ParticipantList,
  SessionTotals,
  WaitingList,
} from "~/attendance/components/participant-lists";
import { ErrorPage } from "~/error-page";
import { requireEventMay } from "~/guards.server";
import { plural } from "~/kernel/plural";
import { readForm } from "~/kernel/read-form.server";
import { formatDateTime } from "~/kernel/time";
import { ParticipantsMessageForm } from "~/mail/components/participants-message-form";
import { AlertDialog } from "~/ui/dialog";
import { loadParticipants, participantsAction } from "./participants.server";
import type { Route } from "./+types/participants";
import { BackLink } from "~/ui/back-link";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const admin = await requireEventMay(request, context, "event.participants", params.eventId);
  return loadParticipants(request, params.eventId, admin, context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireEventMay(request, context, "event.participants", params.eventId);
  return participantsAction(params.eventId, await readForm(request), admin, context);
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

export default function Participants({ loaderData, actionData }: Route.ComponentProps) {
  const { event, participants, sessions, waiting, timeZone, ended, sent, door } = loaderData;
  const navigation = useNavigation();
  const messageResult =
    actionData && "intent" in actionData && actionData.intent === "sendMessage"
      ? actionData
      : undefined;
  const busy = navigation.state !== "idle";
  const present = participants.filter((p) => p.checkedInAt !== null).length;
  return (
    <div className="page">
      <BackLink to={`/admin/eventos/${event.id}`} label="Gestionar el evento" />
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
        <Link reloadDocument className="button" to={`/admin/eventos/${event.id}/registro`}>
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
      <SessionTotals sessions={sessions} participants={participants} timeZone={timeZone} />
      <ParticipantList
        eventId={event.id}
        participants={participants}
        sessions={sessions}
        door={door}
        ended={ended}
        busy={busy}
        timeZone={timeZone}
      />
      <WaitingList waiting={waiting} timeZone={timeZone} />
      <ParticipantsMessageForm
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
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
