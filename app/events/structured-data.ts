// What an event's page tells search engines and link previews: a short description and
// schema.org Event data (https://schema.org/Event).
import { imageSrc } from "~/events/components/event-image";
import type { TIPOS_EVENTO } from "~/kernel/limits";

export interface PublicEvent {
  id: string;
  nombreEvento: string;
  ubicacionEvento: string;
  ubicacionEspecifica: string | null;
  tipoEvento: (typeof TIPOS_EVENTO)[number];
  enlacesVirtuales: string[];
  imagenEnlace: string;
  descripcion: string;
  startsAt: string;
  endsAt: string;
}

/** The description flattened to one line of at most 160 characters. */
export function shortDescription(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

/** schema.org Event data; `<` is escaped so that no text can close the script element. */
export function structuredData(event: PublicEvent, origin: string): string {
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
    endDate: event.endsAt,
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
