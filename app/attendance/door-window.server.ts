// The door hours of an event (decisions 041 and 075): organisers and admins set them on the
// event's page, and the door of each of its sessions follows them (./door.ts).
import type { EventActor } from "~/events/event.server";
import { eq } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db, Tx } from "~/db/client.server";
import { doorWindows, type DoorWindow } from "./door";
import { openSessionsOf } from "./event-session-attendance.server";
import { events } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";
import { EventNotFoundError, Refusal } from "~/kernel/errors";

/**
 * The event's door hours: the door of each session opens this many hours before its start and
 * closes this many after its end, for everyone at the door (3 and 6 unless changed; 0 to 72 each).
 * Door staff work only between the first session's opening and the last one's closing. Admins and
 * the event's organisers set them.
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

/** The doors of an event's sessions not cancelled, by start; null when there is no such event. */
export async function eventDoors(db: Db | Tx, eventId: string): Promise<DoorWindow[] | null> {
  const [hours] = await db
    .select({ doorHoursBefore: events.doorHoursBefore, doorHoursAfter: events.doorHoursAfter })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!hours) return null;
  return doorWindows(hours, await openSessionsOf(db, eventId));
}

export class DoorWindowError extends Refusal {
  override name = "DoorWindowError";
  constructor() {
    super(`Las horas deben ser un número entero entre 0 y ${DOOR_HOURS_MAX}.`, 400, {
      field: "puerta",
    });
  }
}
