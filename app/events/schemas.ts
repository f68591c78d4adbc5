// §5 The event form and the gallery.
import { z } from "zod";
import {
  dateField,
  isLink,
  linkListField,
  optionalText,
  requiredText,
  timeField,
  httpUrlField,
  URL_MAX,
} from "~/kernel/fields";
import { isHttpUrl, isRealDate } from "~/kernel/checks";
import { UPLOAD_MAX_FILES } from "~/kernel/images";
import { holdHoursField, priceField } from "~/payments/schemas";
import { CAPACITY_MAX, EVENT_DESCRIPTION_MAX, EVENT_NAME_MAX, TIPOS_EVENTO } from "~/kernel/limits";

const CAPACITY_INVALID = "El cupo debe ser un número entero de plazas (1 o más), o quedar vacío.";

/** 'Cupo (plazas, opcional)': blank means no limit (null); otherwise a whole number ≥ 1. */
const capacityField = z
  .string({ error: CAPACITY_INVALID })
  .trim()
  .default("")
  .refine((v) => v === "" || /^\d{1,9}$/.test(v), CAPACITY_INVALID)
  .refine((v) => v === "" || Number(v) >= 1, CAPACITY_INVALID)
  .refine(
    (v) => v === "" || Number(v) <= CAPACITY_MAX,
    `El cupo puede ser como máximo ${CAPACITY_MAX.toLocaleString("es-BO")} plazas.`,
  )
  .transform((v) => (v === "" ? null : Number(v)));

export const CHAT_LINK_INVALID =
  "El enlace del grupo debe ser una dirección https:// válida (por ejemplo, https://chat.whatsapp.com/…).";

/** 'Enlace del grupo (opcional)': blank is none; otherwise an https link (decision 047). */
const chatLinkField = z
  .string({ error: CHAT_LINK_INVALID })
  .trim()
  .default("")
  .refine((v) => v.length <= URL_MAX, `La URL puede tener como máximo ${URL_MAX} caracteres.`)
  .refine((v) => v === "" || (v.startsWith("https://") && isHttpUrl(v)), CHAT_LINK_INVALID)
  .transform((v) => (v === "" ? null : v));

const END_DATE_INVALID = "La fecha de fin no es una fecha válida.";
const END_TIME_INVALID = "La hora de fin no es válida (usa HH:MM, de 00:00 a 23:59).";
export const END_BEFORE_START = "El fin del evento debe ser posterior a su inicio.";

/** 'Fecha de fin' / 'Hora de fin': blank (the default end, start + 2 h) or a date / a time. */
const endDateField = z
  .string({ error: END_DATE_INVALID })
  .trim()
  .default("")
  .refine((v) => v === "" || isRealDate(v), END_DATE_INVALID);
const endTimeField = z
  .string({ error: END_TIME_INVALID })
  .trim()
  .default("")
  .refine((v) => v === "" || /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/.test(v), END_TIME_INVALID)
  .transform((v) => v.slice(0, 5));

/**
 * Whether the end (both blank: the default) is after the start, as wall-clock times of the
 * site's zone; the field to blame when it is not. The model checks the instants again.
 */
export function endFieldBeforeStart(value: {
  fechaEvento: string;
  horaEvento: string;
  fechaFin: string;
  horaFin: string;
}): "fechaFin" | "horaFin" | null {
  if (value.fechaFin === "" && value.horaFin === "") return null;
  if (value.fechaFin < value.fechaEvento) return "fechaFin";
  if (value.fechaFin === value.fechaEvento && value.horaFin <= value.horaEvento) return "horaFin";
  return null;
}

/**
 * §5: an event's links as saved — none for a Presencial event; otherwise trimmed, blanks dropped,
 * each an http(s) URL, at least one — or what is wrong with them.
 */
export function checkEventLinks(
  tipoEvento: string,
  links: unknown,
): { ok: true; links: string[] } | { ok: false; message: string } {
  if (tipoEvento === "Presencial") return { ok: true, links: [] };
  const parsed = linkListField({ max: 20 }).safeParse(links);
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? "Enlace no válido." };
  if (parsed.data.length === 0)
    return {
      ok: false,
      message: "Un evento virtual o híbrido necesita al menos un enlace del evento.",
    };
  return { ok: true, links: parsed.data };
}

/**
 * §5 Event form. Event links apply only when the type is not Presencial: then at least one is
 * required; for a Presencial event whatever was posted as links is dropped (the server decides).
 */
export const EventSchema = z
  .strictObject({
    nombreEvento: requiredText("Escribe el nombre del evento.", EVENT_NAME_MAX),
    ubicacionEvento: requiredText(
      "Escribe la ubicación del evento (país, ciudad).",
      EVENT_NAME_MAX,
    ),
    tipoEvento: z.enum(TIPOS_EVENTO, { error: "Selecciona un tipo de evento de la lista." }),
    enlacesVirtuales: z.array(z.string()).default([]),
    fechaEvento: dateField(
      "Escribe la fecha del evento.",
      "La fecha del evento no es una fecha válida.",
    ),
    horaEvento: timeField(
      "Escribe la hora del evento.",
      "La hora del evento no es válida (usa HH:MM, de 00:00 a 23:59).",
    ),
    fechaFin: endDateField,
    horaFin: endTimeField,
    imagenEnlace: httpUrlField(
      "Escribe el enlace de la imagen del evento.",
      "El enlace de la imagen debe ser una URL válida que empiece con http:// o https://.",
      { images: true },
    ),
    ubicacionEspecifica: optionalText(EVENT_NAME_MAX),
    descripcion: requiredText("Escribe la descripción del evento.", EVENT_DESCRIPTION_MAX),
    capacity: capacityField,
    /** 'Precio (Bs, opcional)', in centavos: 0 (blank) is free (decision 048). */
    price: priceField,
    /** 'Reserva para pagar (horas)': how long a place at a paid event is held for its payment. */
    holdHours: holdHoursField,
    enlaceGrupo: chatLinkField,
  })
  .transform((value, ctx) => {
    // One of the end's two fields without the other: say which is missing.
    if (value.fechaFin === "" && value.horaFin !== "") {
      ctx.addIssue({ code: "custom", path: ["fechaFin"], message: "Escribe la fecha de fin." });
      return z.NEVER;
    }
    if (value.horaFin === "" && value.fechaFin !== "") {
      ctx.addIssue({ code: "custom", path: ["horaFin"], message: "Escribe la hora de fin." });
      return z.NEVER;
    }
    const wrongEnd = endFieldBeforeStart(value);
    if (wrongEnd) {
      ctx.addIssue({ code: "custom", path: [wrongEnd], message: END_BEFORE_START });
      return z.NEVER;
    }
    const links = checkEventLinks(value.tipoEvento, value.enlacesVirtuales);
    if (!links.ok) {
      ctx.addIssue({ code: "custom", path: ["enlacesVirtuales"], message: links.message });
      return z.NEVER;
    }
    return { ...value, enlacesVirtuales: links.links };
  });
export type EventInput = z.output<typeof EventSchema>;

/** §5 Gallery: one or more images, each an http(s) URL or an uploaded image's path. */
export const GalleryImageSchema = z.strictObject({
  url: z
    .array(z.string({ error: "Escribe la URL de la imagen." }))
    .transform((list) => list.map((v) => v.trim()).filter((v) => v !== ""))
    .pipe(
      z
        .array(
          z
            .string()
            .max(URL_MAX, `La URL puede tener como máximo ${URL_MAX} caracteres.`)
            .refine(isLink(true), "La URL de la imagen debe empezar con http:// o https://."),
        )
        .min(1, "Escribe la URL de la imagen.")
        .max(UPLOAD_MAX_FILES * 5, `Como máximo ${UPLOAD_MAX_FILES * 5} imágenes a la vez.`),
    ),
});
