// The door window of an event (decision 041): the hours around it in which its door staff may
// check people in. Organisers and admins set it on the event's page.
import type { EventActor } from "~/events/event.server";
import { eq } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { events } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError, Refusal } from "~/kernel/errors";

/**
 * The hours around an event in which its door staff may check people in (3 before the start and
 * 6 after the end unless changed); admins and the event's organisers, 0 to 72 each.
 */
export async function setDoorWindow(
  db: Db,
  actor: EventActor,
  eventId: unknown,
  hoursBefore: number,
  hoursAfter: number,
): Promise<void> {
  const role = assertMay(actor, "event.door.window", { eventId: String(eventId) });
  if (!isUuid(eventId)) throw new EventNotFoundError();
  for (const h of [hoursBefore, hoursAfter]) {
    if (!Number.isInteger(h) || h < 0 || h > DOOR_HOURS_MAX) throw new DoorWindowError();
  }
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(events)
      .set({ doorHoursBefore: hoursBefore, doorHoursAfter: hoursAfter })
      .where(eq(events.id, eventId))
      .returning({ nombreEvento: events.nombreEvento });
    if (updated.length === 0) throw new EventNotFoundError();
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "event.door.window",
      itemKind: "event",
      itemId: eventId,
      summary: `Registro de entrada de «${updated[0]!.nombreEvento}»: desde ${hoursBefore} h antes hasta ${hoursAfter} h después`,
    });
  });
}

export const DOOR_HOURS_MAX = 72;

export class DoorWindowError extends Refusal {
  override name = "DoorWindowError";
  constructor() {
    super(`Las horas deben ser un número entero entre 0 y ${DOOR_HOURS_MAX}.`, 400, {
      field: "puerta",
    });
  }
}
