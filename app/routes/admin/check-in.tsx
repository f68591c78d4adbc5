// Check-in at the door for one event: the admin scans a participant's QR code (or types their
// code), sees their name and photo, and they are marked present. It works without a connection:
// the page is kept by a service worker (app/attendance/offline-worker.js, served at
// /registro-sw.js); the participant list and the
// check-ins not yet sent are kept and sent by useCheckInSync (app/attendance/use-check-in-sync.ts,
// over IndexedDB), and the server keeps the first time. This module renders what the hook holds.
// Admins only. Without JavaScript, the typed code is posted to this page's action. See
// docs/decisions/019-check-in.md.
import { data, Link } from "react-router";
import { ErrorPage } from "~/error-page";
import { CHECK_IN_CODE_FIELD_MAX, type CheckInReply } from "~/attendance/check-in";
import { CheckInPeople } from "~/attendance/components/check-in-people";
import { CheckInReader } from "~/attendance/components/check-in-reader";
import { CheckInResult } from "~/attendance/components/check-in-result";
import { CheckInStatus } from "~/attendance/components/check-in-status";
import { useOwnDocument } from "~/kernel/use-own-document";
import { useCheckInSync } from "~/attendance/use-check-in-sync";
import { MESSAGES } from "~/messages";
import { formatDateTime } from "~/kernel/time";
import { requireEventActor } from "~/guards.server";
import { readForm } from "~/kernel/read-form.server";
import { isLinkHolder } from "~/members/staff-links.server";
import { checkInFromForm, loadCheckInFor } from "./check-in.server";
import { listCategories } from "~/competitions/categories.server";
import { eventScope } from "~/events/event.server";
import { may } from "~/kernel/permissions";
import type { Route } from "./+types/check-in";
import { BackLink } from "~/ui/back-link";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { actor, payload, session } = await loadCheckInFor(request, params.eventId, context);
  return data(
    {
      ...payload,
      session,
      timeZone: context.config.siteTimezone,
      // A staff link's holder (decision 041) sees whose link this is, not pages they cannot open.
      viaLink: isLinkHolder(actor) ? actor.link.label : null,
      // A competition's door staff and organisers also inspect robots (decision 055).
      inspection:
        !isLinkHolder(actor) &&
        may(actor, "event.inspect", {
          ...(await eventScope(context.db, params.eventId, context.now())),
        }) &&
        (await listCategories(context.db, params.eventId)).length > 0,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The action's answer: a refused code comes back with what was typed. */
type CheckInAnswer = CheckInReply & { codigo?: string };

/** A typed code sent without JavaScript (the page's script sends to …/registro/datos instead). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireEventActor(request, context, "event.checkIn", params.eventId);
  const form = await readForm(request);
  if (form.get("intent") !== "checkIn") {
    return data<CheckInAnswer>({ ok: false, message: MESSAGES.unknownAction }, { status: 400 });
  }
  const { status, reply } = await checkInFromForm(form, context, admin, params.eventId);
  if (reply.ok) return data<CheckInAnswer>(reply, { status });
  // A refused code is shown again in the field, no longer than the field takes.
  const typed = form.get("codigo");
  return data<CheckInAnswer>(
    { ...reply, codigo: typeof typed === "string" ? typed.slice(0, CHECK_IN_CODE_FIELD_MAX) : "" },
    { status },
  );
}

export function meta({ loaderData, params }: Route.MetaArgs) {
  return [
    {
      tagName: "link",
      rel: "manifest",
      href: `/admin/eventos/${params.eventId}/registro.webmanifest`,
    },
    { tagName: "link", rel: "apple-touch-icon", href: "/icons/logo-192.png" },
    {
      title: loaderData ? `Registro: ${loaderData.event.nombreEvento} — Ayllu` : "Registro — Ayllu",
    },
    { name: "robots", content: "noindex" },
    { name: "theme-color", content: "#0b1020" },
  ];
}

export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { event, timeZone } = loaderData;
  useOwnDocument();
  const sync = useCheckInSync(loaderData, timeZone, actionData);
  const { outcome } = sync;
  // A typed code that matches nobody is the field's error; anything else is told below it.
  const codeError = outcome?.kind === "refused" && outcome.typed ? outcome.message : undefined;

  return (
    <div className="page page-narrow admin-checkin">
      {loaderData.viaLink !== null ? (
        <p className="eyebrow">{`Enlace de registro «${loaderData.viaLink}»`}</p>
      ) : (
        <BackLink to={`/admin/eventos/${event.id}/participantes`} label="Participantes" />
      )}
      <h1>Registro: {event.nombreEvento}</h1>
      <p className="lead">
        {loaderData.session ?? (
          <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
        )}
      </p>
      {sync.door.closed ? (
        <p className="card admin-checkin-closed" role="status">
          {sync.door.closed}
        </p>
      ) : null}
      {loaderData.inspection ? (
        <p>
          <Link
            className="button button-ghost button-small"
            to={`/admin/eventos/${event.id}/inspeccion`}
          >
            Equipos de la competencia e inspección de robots
          </Link>
        </p>
      ) : null}
      <CheckInStatus
        people={sync.people}
        online={sync.online}
        pending={sync.pending}
        sessionEnded={sync.sessionEnded}
      />
      {sync.door.open ? (
        <CheckInReader
          local={sync.local}
          typedCode={actionData?.codigo}
          codeError={codeError}
          outcome={outcome}
          onScan={sync.scanned}
          onCode={sync.typed}
        >
          <CheckInResult outcome={outcome} timeZone={timeZone} />
        </CheckInReader>
      ) : null}
      <CheckInPeople
        people={sync.people}
        local={sync.local}
        open={sync.door.open}
        timeZone={timeZone}
        onMark={(person) => void sync.markPresent(person)}
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/inicio", label: "Volver al inicio" }} />;
}
