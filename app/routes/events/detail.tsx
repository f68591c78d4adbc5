// An event's page (/detalles/:id, §4): what, where, when, the seats left, the button to take part,
// the door pass, the certificate and the gallery. What it shows and what its button does live in
// detail.server.ts; its parts in the events and attendance domains.
import { CheckInPass } from "~/attendance/components/check-in-pass";
import { ErrorPage } from "~/error-page";
import { cardPath, type LinkCardHandle } from "~/site/link-preview";
import { EventGallery } from "~/events/components/event-gallery";
import { Share } from "~/ui/share";
import { BubbleIcon, WhatsAppLink } from "~/ui/whatsapp";
import { ParticipationButton, seatsText } from "~/events/components/participation-button";
import { eventLinkLabel, eventPlace, mapSearchUrl } from "~/events/event-place";
import { chatLinkLabel } from "~/kernel/chat-link";
import { plural } from "~/kernel/plural";
import { formatBs } from "~/payments/money";
import { shortDescription, structuredData } from "~/events/structured-data";
import { redirectWithFlash } from "~/flash.server";
import { getUser, requireProfile } from "~/guards.server";
import { useNonce } from "~/kernel/nonce";
import { readForm } from "~/kernel/read-form.server";
import { formatDateRange, formatDateTime, formatDateTimeRange } from "~/kernel/time";
import { tipoEventoLabel } from "~/kernel/limits";
import { EventStateBadge } from "~/events/components/event-state-badge";
import { AlertDialog } from "~/ui/dialog";
import { ItemImage } from "~/ui/item-card";
import { EventStaff } from "~/members/components/event-staff";
import { loadEventDetail, participationAction } from "./detail.server";
import type { Route } from "./+types/detail";
import { BackLink } from "~/ui/back-link";
import { SessionList } from "~/events/components/session-list";
import { CategoryList } from "~/competitions/components/category-list";
import type { PublicCategory } from "~/competitions/categories";
import type { WithoutScripts } from "~/site/light-mode";

/**
 * A competition's first button (decision 077): 'Inscribir un equipo' while a category takes teams
 * (straight to the form when only one does, else to the categories to choose from), 'Ver
 * categorías' once none does. Nothing on an event without categories.
 */
function TeamRegistrationLead({ categories }: { categories: readonly PublicCategory[] }) {
  if (categories.length === 0) return null;
  const open = categories.filter((c) => !c.closed);
  if (open.length === 0) {
    return (
      <p className="event-lead-action">
        <a className="button" href="#categorias">
          Ver categorías
        </a>
      </p>
    );
  }
  const only = open.length === 1 ? open[0] : null;
  return (
    <p className="event-lead-action">
      <a className="button" href={only ? `/equipos/nuevo?categoria=${only.id}` : "#categorias"}>
        {only && (only.placesLeft === 0 || only.waiting.length > 0)
          ? "Anotar un equipo en la lista de espera"
          : "Inscribir un equipo"}
      </a>
    </p>
  );
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadEventDetail(params.eventId, await getUser(request, context), context);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await getUser(request, context);
  if (!user) {
    const here = `/detalles/${params.eventId}`;
    throw redirectWithFlash(
      context,
      `/login?redirectTo=${encodeURIComponent(here)}`,
      "participationLoginRequired",
    );
  }
  await requireProfile(request, context);
  return participationAction(params.eventId, await readForm(request), user, context);
}

/** The link preview's card (decision 046). */
export const handle: LinkCardHandle<Awaited<ReturnType<typeof loader>>["data"]> & WithoutScripts = {
  withoutScripts: true,
  linkCard: (data) => (data ? cardPath("evento", data.event.id) : null),
};

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData)
    return [{ title: "Evento no encontrado — Ayllu" }, { name: "robots", content: "noindex" }];
  const { event, origin, timeZone } = loaderData;
  const url = `${origin}/detalles/${event.id}`;
  const desc = `${formatDateTime(event.startsAt, timeZone)} · ${event.ubicacionEvento}. ${shortDescription(event.descripcion)}`;
  return [
    { title: `${event.nombreEvento} — Ayllu` },
    { name: "description", content: desc },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:title", content: event.nombreEvento },
    { property: "og:description", content: desc },
    { property: "og:url", content: url },
  ];
}

export default function EventDetail({ loaderData, actionData }: Route.ComponentProps) {
  const {
    event,
    state,
    ended,
    signedIn,
    participating,
    attended,
    certificate,
    sessionsAttended,
    waiting,
    payment,
    seats,
    checkIn,
    timeZone,
    origin,
    eventStaff,
    manage,
    checkInLink,
    judging,
    organisers,
    going,
    nextSession,
    shareLine,
    chatLink,
    reminder,
    categories,
    editCategories,
  } = loaderData;
  const held = event.sessions.filter((s) => !s.cancelled).length;
  // A member with a place at an event still to come.
  const joined = participating && !ended;
  const map = mapSearchUrl(event);
  const url = `${origin}/detalles/${event.id}`;
  const nonce = useNonce();
  return (
    <article className="page event-detail" aria-labelledby="event-title">
      <BackLink to="/eventos" label="Todos los eventos" />
      {/* The nonce keeps Chromium from reporting this data block as a policy violation. */}
      <script
        type="application/ld+json"
        nonce={nonce}
        dangerouslySetInnerHTML={{ __html: structuredData(event, origin) }}
      />
      <div className="event-detail-grid">
        <ItemImage
          src={event.imagenEnlace}
          label="Evento"
          className="event-detail-image"
          main
          sizes="(min-width: 56rem) 36rem, 100vw"
          alt={`Imagen del evento ${event.nombreEvento}`}
        />
        <div className="card event-detail-body">
          {state !== "upcoming" ? (
            <p className="event-badges">
              <EventStateBadge state={state} />
            </p>
          ) : null}
          <h1 id="event-title">{event.nombreEvento}</h1>
          {/* A competition leads with its teams' registration (decision 077), in a phone's first
              screen; the seat in the audience comes with the other buttons, and says it is one. */}
          {ended ? null : <TeamRegistrationLead categories={categories} />}
          <dl className="details">
            <div className="detail">
              <dt>Ubicación</dt>
              <dd>
                {eventPlace(event)}
                {map ? (
                  <>
                    {" · "}
                    <a
                      className="inline-action"
                      href={map}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      Ver en el mapa
                      <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                    </a>
                  </>
                ) : null}
              </dd>
            </div>
            {held > 1 ? (
              <>
                {/* A course or a club: its span and how many sessions, then the next one. */}
                <div className="detail">
                  <dt>Fechas</dt>
                  <dd>
                    <time dateTime={event.startsAt}>
                      {formatDateRange(event.startsAt, event.endsAt, timeZone)}
                    </time>
                    {` · ${held} sesiones`}
                  </dd>
                </div>
                {nextSession ? (
                  <div className="detail">
                    <dt>{nextSession.underWay ? "Sesión en curso" : "Próxima sesión"}</dt>
                    <dd>
                      <time dateTime={nextSession.startsAt}>
                        {formatDateTimeRange(nextSession.startsAt, nextSession.endsAt, timeZone)}
                      </time>
                    </dd>
                  </div>
                ) : null}
              </>
            ) : (
              <div className="detail">
                <dt>Fecha y hora</dt>
                <dd>
                  <time dateTime={event.startsAt}>
                    {formatDateTimeRange(event.startsAt, event.endsAt, timeZone)}
                  </time>
                </dd>
              </div>
            )}
            <div className="detail">
              <dt>Tipo</dt>
              <dd>{tipoEventoLabel(event.tipoEvento)}</dd>
            </div>
            <div className="detail">
              <dt>Organiza</dt>
              <dd>{organisers.join(", ")}</dd>
            </div>
            <div className="detail">
              <dt>{ended ? "Participaron" : "Participan"}</dt>
              <dd>
                {going === 0 && !ended
                  ? "Nadie todavía: ¡sé la primera persona!"
                  : plural(going, "persona", "personas")}
              </dd>
            </div>
            {event.priceCents > 0 ? (
              <div className="detail">
                <dt>Precio</dt>
                <dd>{formatBs(event.priceCents)}</dd>
              </div>
            ) : null}
            {seats ? (
              <div className="detail">
                <dt>Plazas</dt>
                <dd className={seats.left === 0 ? "event-seats-full" : undefined}>
                  {seatsText(seats.left)}
                </dd>
              </div>
            ) : null}
          </dl>
          <p className="event-description">{event.descripcion}</p>
          {event.tipoEvento !== "Presencial" && event.enlacesVirtuales.length > 0 ? (
            <section aria-labelledby="event-links-title">
              <h2 id="event-links-title">Enlaces del evento</h2>
              <ul className="event-links">
                {event.enlacesVirtuales.map((url, i) => (
                  <li key={`${i}-${url}`}>
                    <a href={url} target="_blank" rel="noopener noreferrer">
                      {eventLinkLabel(url)}
                      <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {waiting !== null && !ended ? (
            <p className="event-waitlist-position" role="status">
              Estás en la lista de espera: posición {waiting}
            </p>
          ) : null}
          {sessionsAttended ? (
            <p className="event-attendance" role="status">
              {`Asististe a ${sessionsAttended.attended} de ${sessionsAttended.total} sesiones.${
                ended && !certificate && sessionsAttended.share !== null
                  ? ` El certificado es para quienes asistieron al menos al ${sessionsAttended.share} % de las sesiones.`
                  : ""
              }`}
            </p>
          ) : null}
          {payment && !ended ? (
            <p className="event-payment" role="status">
              {payment.status === "pending"
                ? "Tu plaza está reservada: Pendiente de pago. "
                : payment.status === "refused"
                  ? "Tesorería no pudo confirmar tu pago. "
                  : payment.status === "submitted"
                    ? "Recibimos tu pago; tesorería lo está revisando. "
                    : payment.status === "waived"
                      ? "Tienes una beca para este evento. "
                      : "Pago confirmado. "}
              <a href={`/detalles/${event.id}/pago`}>
                {payment.status === "pending" || payment.status === "refused"
                  ? "Pagar mi inscripción"
                  : "Ver mi pago"}
              </a>
            </p>
          ) : null}
          <div className="button-row">
            {/* The certificate, the one thing left to do, comes first. */}
            {certificate ? (
              <a className="button" href={`/detalles/${event.id}/certificado.pdf`} download>
                Descargar certificado
              </a>
            ) : null}
            {/* A member with a place: leaving is a quiet link at the end, not a button here. */}
            {joined ? null : (
              <ParticipationButton
                audience={categories.length > 0}
                ended={ended}
                signedIn={signedIn}
                participating={participating}
                attended={attended}
                waiting={ended ? null : waiting}
                full={seats !== null && seats.left === 0}
                eventId={event.id}
              />
            )}
            {/* One primary action once in: the pass for the door, or else the calendar. */}
            {joined && checkIn ? (
              <a className="button" href="/mis-entradas">
                Ver en Mis entradas
              </a>
            ) : null}
            {/* Once the event is over, there is nothing left to put in a calendar. */}
            {ended ? null : (
              <a
                className={joined && !checkIn ? "button" : "button button-secondary"}
                href={`/detalles/${event.id}/calendario.ics`}
                download
              >
                Añadir al calendario
              </a>
            )}
          </div>
          {chatLink ? (
            <p className="event-chat">
              <a
                className={
                  chatLinkLabel(chatLink).includes("WhatsApp") ? "button button-whatsapp" : "button"
                }
                href={chatLink}
                target="_blank"
                rel="noopener noreferrer"
              >
                {chatLinkLabel(chatLink).includes("WhatsApp") ? <BubbleIcon /> : null}
                {chatLinkLabel(chatLink)}
                <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
              </a>
            </p>
          ) : null}
          <div className="event-share" role="group" aria-labelledby="event-share-title">
            <p className="event-share-title" id="event-share-title">
              Compartir el evento
            </p>
            <Share title={event.nombreEvento} url={url} line={shareLine} />
            {reminder ? (
              <p className="event-reminder">
                <WhatsAppLink
                  text={reminder}
                  label="Recordatorio por WhatsApp"
                  context="para enviártelo a ti o a un grupo"
                  secondary
                />
              </p>
            ) : null}
          </div>
          {checkIn ? (
            <section className="event-checkin" aria-labelledby="event-checkin-title">
              <h2 id="event-checkin-title">Tu código de registro</h2>
              <p className="muted">
                Muéstralo en la puerta del evento. Si no se puede escanear, di tu código.
                {joined ? " También lo tienes en Mis entradas, sin conexión." : null}
              </p>
              <CheckInPass pass={checkIn} />
            </section>
          ) : null}
          {participating && !(joined && checkIn) ? (
            <p className="event-my-passes">
              {/* A document load: the page registers its own service worker (decision 050). */}
              <a href="/mis-entradas">Ver en Mis entradas</a>
              {ended ? null : " (también sin conexión)"}
            </p>
          ) : null}
          {joined ? (
            <div className="event-leave">
              <ParticipationButton
                audience={categories.length > 0}
                ended={ended}
                signedIn={signedIn}
                participating={participating}
                attended={attended}
                waiting={null}
                full={false}
                eventId={event.id}
              />
            </div>
          ) : null}
          {/* After the buttons and the pass: a course of twenty classes does not push them down. */}
          {event.sessions.length > 1 ? (
            <SessionList sessions={event.sessions} timeZone={timeZone} />
          ) : null}
        </div>
      </div>
      {categories.length > 0 ? (
        <CategoryList
          categories={categories}
          timeZone={timeZone}
          resultsHref={`/detalles/${event.id}/resultados`}
        />
      ) : null}
      {manage || checkInLink || judging.length > 0 ? (
        <nav className="button-row event-staff-links" aria-label="Tu trabajo en este evento">
          {judging.map((c) => (
            <a key={c.id} className="button" href={`/admin/eventos/${event.id}/jurado/${c.id}`}>
              Anotar resultados: {c.name}
            </a>
          ))}
          {manage ? (
            <a className="button" href={`/admin/eventos/${event.id}`}>
              Gestionar evento
            </a>
          ) : null}
          {editCategories ? (
            <a className="button button-secondary" href={`/admin/eventos/${event.id}/categorias`}>
              Categorías de la competencia
            </a>
          ) : null}
          {editCategories && categories.length > 0 ? (
            <a className="button button-secondary" href={`/admin/eventos/${event.id}/equipos`}>
              Equipos de la competencia
            </a>
          ) : null}
          {checkInLink ? (
            <a className="button button-secondary" href={`/admin/eventos/${event.id}/registro`}>
              Registro de entrada
            </a>
          ) : null}
        </nav>
      ) : null}
      {eventStaff ? (
        <EventStaff
          eventId={event.id}
          staff={eventStaff.staff}
          kinds={eventStaff.kinds}
          categories={eventStaff.categories}
          error={actionData && "staff" in actionData ? actionData.message : undefined}
        />
      ) : null}
      {event.gallery.length > 0 ? (
        <EventGallery images={event.gallery} eventName={event.nombreEvento} />
      ) : null}
      {actionData?.message && !("staff" in actionData) ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Ver todos los eventos" }} />;
}
