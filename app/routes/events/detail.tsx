import { data, Form, Link, useNavigation } from "react-router";
import { AlertDialog } from "~/ui/dialog";
import { ErrorPage } from "~/error-page";
import { notFound } from "~/kernel/not-found";
import { imageSrc } from "~/events/components/event-image";
import { isImageLink, uploadSrcSet } from "~/kernel/images";
import { ItemImage } from "~/ui/item-card";
import { MESSAGES, type MessageKey } from "~/messages";
import { isHttpUrl } from "~/kernel/checks";
import { eventPlace } from "~/events/event-place";
import { formatDateTime } from "~/kernel/time";
import { getUser, requireProfile } from "~/guards.server";
import { getEventForViewer, hasEnded } from "~/events/event.server";
import { checkInPass } from "~/attendance/check-in.server";
import { CheckInPass } from "~/attendance/components/check-in-pass";
import { joinEvent, leaveEvent, leaveWaitlist } from "~/events/participation.server";
import type { Route } from "./+types/detail";
import { useNonce } from "~/kernel/nonce";
import { readForm } from "~/kernel/read-form.server";
import { redirectWithFlash } from "~/flash.server";
import { answerRefusal, Refusal } from "~/kernel/errors";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getUser(request, context);
  const now = context.now();
  const event = await getEventForViewer(context.db, params.eventId, user?.id ?? null);
  if (!event) notFound(MESSAGES.eventNotFound);
  const participating = event.participating;
  const waiting = participating ? null : event.waiting;
  const ended = hasEnded(event, now);
  const origin = context.config.publicUrl.origin;
  return data(
    {
      event: {
        id: event.id,
        nombreEvento: event.nombreEvento,
        ubicacionEvento: event.ubicacionEvento,
        ubicacionEspecifica: event.ubicacionEspecifica,
        tipoEvento: event.tipoEvento,
        enlacesVirtuales: event.enlacesVirtuales.filter(isHttpUrl),
        imagenEnlace: event.imagenEnlace,
        descripcion: event.descripcion,
        startsAt: event.startsAt.toISOString(),
        gallery: event.gallery.filter((image) => isImageLink(image.url)),
      },
      ended,
      signedIn: user !== null,
      participating,
      // A checked-in participant's certificate of attendance, once the event has ended.
      certificate: ended && event.attended,
      waiting,
      seats: ended || event.seatsLeft === null ? null : { left: event.seatsLeft },
      // The member's pass for the door, while the event is ahead and has a door.
      checkIn:
        user && participating && !ended && event.tipoEvento !== "Virtual"
          ? checkInPass(context.config.sessionSecret, event, user.id)
          : null,
      timeZone: context.config.siteTimezone,
      origin,
    },
    user ? { headers: { "Cache-Control": "no-store" } } : undefined,
  );
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const here = `/detalles/${params.eventId}`;
  const user = await getUser(request, context);
  if (!user) {
    throw redirectWithFlash(
      context,
      `/login?redirectTo=${encodeURIComponent(here)}`,
      "participationLoginRequired",
    );
  }
  await requireProfile(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "join" && intent !== "leave" && intent !== "leaveWaitlist") {
    return data({ message: MESSAGES.participationFailed }, { status: 400 });
  }
  let flash: MessageKey;
  try {
    if (intent === "join") {
      const outcome = await joinEvent(context.db, user, params.eventId, context.now());
      flash = outcome === "joined" ? "participationJoined" : "waitlistJoined";
    } else if (intent === "leave") {
      await leaveEvent(context.db, user, params.eventId, context.now());
      flash = "participationLeft";
    } else {
      await leaveWaitlist(context.db, user, params.eventId);
      flash = "waitlistLeft";
    }
  } catch (error) {
    if (error instanceof Refusal) return answerRefusal(error);
    console.error("No se pudo actualizar la participación:", error);
    return data({ message: MESSAGES.participationFailed }, { status: 500 });
  }
  return redirectWithFlash(context, here, flash);
}

function description(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData)
    return [{ title: "Evento no encontrado — Ayllu" }, { name: "robots", content: "noindex" }];
  const { event, origin, timeZone } = loaderData;
  const url = `${origin}/detalles/${event.id}`;
  const image = new URL(imageSrc(event.imagenEnlace), origin).toString();
  const desc = `${formatDateTime(event.startsAt, timeZone)} · ${event.ubicacionEvento}. ${description(event.descripcion)}`;
  return [
    { title: `${event.nombreEvento} — Ayllu` },
    { name: "description", content: desc },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:title", content: event.nombreEvento },
    { property: "og:description", content: desc },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
  ];
}

/** schema.org Event data; `<` is escaped so that no text can close the script element. */
function structuredData(
  event: Route.ComponentProps["loaderData"]["event"],
  origin: string,
): string {
  const attendanceMode = {
    Presencial: "https://schema.org/OfflineEventAttendanceMode",
    Virtual: "https://schema.org/OnlineEventAttendanceMode",
    Hibrido: "https://schema.org/MixedEventAttendanceMode",
  }[event.tipoEvento];
  const place = {
    "@type": "Place",
    name: event.ubicacionEspecifica || event.ubicacionEvento,
    address: event.ubicacionEvento,
  };
  const online = event.enlacesVirtuales.map((url) => ({ "@type": "VirtualLocation", url }));
  const json = {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.nombreEvento,
    description: event.descripcion,
    startDate: event.startsAt,
    eventAttendanceMode: attendanceMode,
    eventStatus: "https://schema.org/EventScheduled",
    location:
      event.tipoEvento === "Presencial"
        ? place
        : event.tipoEvento === "Virtual"
          ? online
          : [place, ...online],
    image: [new URL(imageSrc(event.imagenEnlace), origin).toString()],
    url: `${origin}/detalles/${event.id}`,
    organizer: { "@type": "Organization", name: "Ayllu", url: origin },
  };
  return JSON.stringify(json)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** 'Quedan N plazas', 'Queda 1 plaza' or 'Cupo completo'. */
function seatsText(left: number): string {
  if (left === 0) return "Cupo completo";
  return left === 1 ? "Queda 1 plaza" : `Quedan ${left} plazas`;
}

function ParticipationButton({
  ended,
  signedIn,
  participating,
  waiting,
  full,
  eventId,
}: {
  ended: boolean;
  signedIn: boolean;
  participating: boolean;
  waiting: number | null;
  full: boolean;
  eventId: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // §4: once an event has ended the button reads 'Evento Finalizado' and is disabled, for everyone.
  if (ended) {
    return (
      <button type="button" className="button" disabled>
        Evento Finalizado
      </button>
    );
  }
  if (!signedIn) {
    return (
      <Link
        className="button"
        to={`/login?redirectTo=${encodeURIComponent(`/detalles/${eventId}`)}`}
      >
        Inicia Sesión para Participar
      </Link>
    );
  }
  if (participating) {
    return (
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="leave" />
        <button type="submit" className="button button-ghost" disabled={busy}>
          Dejar de Participar
        </button>
      </Form>
    );
  }
  if (waiting !== null) {
    return (
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="leaveWaitlist" />
        <button type="submit" className="button button-ghost" disabled={busy}>
          Salir de la lista de espera
        </button>
      </Form>
    );
  }
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="join" />
      <button type="submit" className="button" disabled={busy}>
        {full ? "Unirse a la lista de espera" : "Participar"}
      </button>
    </Form>
  );
}

export default function EventDetail({ loaderData, actionData }: Route.ComponentProps) {
  const {
    event,
    ended,
    signedIn,
    participating,
    certificate,
    waiting,
    seats,
    checkIn,
    timeZone,
    origin,
  } = loaderData;
  const nonce = useNonce();
  return (
    <article className="page event-detail" aria-labelledby="event-title">
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
          {ended ? (
            <p className="event-badges">
              <span className="badge">Finalizado</span>
            </p>
          ) : null}
          <h1 id="event-title">{event.nombreEvento}</h1>
          <dl className="details">
            <div className="detail">
              <dt>Ubicación</dt>
              <dd>{eventPlace(event)}</dd>
            </div>
            <div className="detail">
              <dt>Fecha y hora</dt>
              <dd>
                <time dateTime={event.startsAt}>{formatDateTime(event.startsAt, timeZone)}</time>
              </dd>
            </div>
            <div className="detail">
              <dt>Tipo</dt>
              <dd>{event.tipoEvento}</dd>
            </div>
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
                      {url}
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
          <div className="button-row">
            <ParticipationButton
              ended={ended}
              signedIn={signedIn}
              participating={participating}
              waiting={ended ? null : waiting}
              full={seats !== null && seats.left === 0}
              eventId={event.id}
            />
            {certificate ? (
              <a className="button" href={`/detalles/${event.id}/certificado.pdf`} download>
                Descargar certificado
              </a>
            ) : null}
            <a
              className="button button-secondary"
              href={`/detalles/${event.id}/calendario.ics`}
              download
            >
              Añadir al calendario
            </a>
          </div>
          {checkIn ? (
            <section className="event-checkin" aria-labelledby="event-checkin-title">
              <h2 id="event-checkin-title">Tu código de registro</h2>
              <p className="muted">
                Muéstralo en la puerta del evento. Si no se puede escanear, di tu código.
              </p>
              <CheckInPass qr={checkIn.qr} code={checkIn.code} />
            </section>
          ) : null}
        </div>
      </div>
      {event.gallery.length > 0 ? (
        <section className="card" aria-labelledby="gallery-title">
          <h2 id="gallery-title">Galería</h2>
          <ul className="event-gallery">
            {event.gallery.map((image, i) => (
              <li key={image.id}>
                <a href={image.url} target="_blank" rel="noopener noreferrer">
                  <img
                    src={image.url}
                    srcSet={uploadSrcSet(image.url)}
                    sizes="(min-width: 40rem) 20rem, 50vw"
                    alt={`Imagen ${i + 1} de la galería de ${event.nombreEvento}`}
                    loading="lazy"
                    referrerPolicy="no-referrer"
                  />
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {actionData?.message ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.message} />
      ) : null}
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} back={{ to: "/eventos", label: "Ver todos los eventos" }} />;
}
