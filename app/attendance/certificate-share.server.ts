// Whether an event gives a certificate of attendance, and from which share of its sessions
// (decisions 044 and 045): organisers and admins set it on the event's page.
import type { EventActor } from "~/events/event.server";
import { eq } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { events } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError, Refusal } from "~/kernel/errors";

export class CertificateShareError extends Refusal {
  override name = "CertificateShareError";
  constructor(message = "El porcentaje de sesiones debe ser un número entero entre 1 y 100.") {
    super(message, 400, { field: "porcentaje" });
  }
}

/**
 * Whether the event gives a certificate and from which share of its sessions (an integer percent,
 * 1–100) a participant earns it (decisions 044 and 045); admins and the event's organisers, as
 * any edit of it. `give` is 'si' (the default, when the form does not say) or 'no', for a club
 * that gives none. Certificates, once the event has ended, were given: they cannot be taken back.
 */
export async function setCertificateShare(
  db: Db,
  actor: EventActor,
  eventId: unknown,
  input: { give: unknown; share: unknown },
  now: Date = new Date(),
): Promise<void> {
  const role = assertMay(actor, "event.edit", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const give = input.give ?? "si";
  if (give !== "si" && give !== "no") {
    throw new CertificateShareError("Elige si el evento entrega certificado de asistencia.");
  }
  let share: number | null = null;
  if (give === "si") {
    const text = typeof input.share === "string" ? input.share.trim() : "";
    share = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(share) || share < 1 || share > 100) throw new CertificateShareError();
  }
  await db.transaction(async (tx) => {
    const [event] = await tx
      .select({ nombreEvento: events.nombreEvento, endsAt: events.endsAt })
      .from(events)
      .where(eq(events.id, eventId))
      .for("update");
    if (!event) throw new EventNotFoundError();
    if (share === null && event.endsAt <= now) {
      throw new CertificateShareError(
        "El evento ya terminó y sus certificados ya se entregaron: no se pueden retirar.",
      );
    }
    await tx.update(events).set({ certificateShare: share }).where(eq(events.id, eventId));
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.certificateShare",
      itemKind: "event",
      itemId: eventId,
      summary:
        share === null
          ? `Certificado de «${event.nombreEvento}»: no entrega certificado`
          : `Certificado de «${event.nombreEvento}»: desde el ${share} % de las sesiones`,
    });
  });
}
