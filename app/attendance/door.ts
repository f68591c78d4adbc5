// The one door rule (docs/decisions/075-one-door-rule.md): when the door of an event opens and
// closes. The organiser sets the event's hours in 'Gestionar evento' › 'Horario del registro de
// entrada'; every session of the event follows them (there is no hour of a session's own): its
// door opens that many hours before its start and closes that many after its end. The server
// decides with it (the check-in, its offline queue, 'Marcar presente') and the phone too, so a
// closed door is said before anyone is marked.
import { formatClockFrom } from "~/kernel/time";

const HOUR = 3_600_000;

/** The hours the organiser set for the event's door. */
export interface DoorHours {
  doorHoursBefore: number;
  doorHoursAfter: number;
}

/** One session's door: when it opens and closes, around when the session runs. */
export interface DoorWindow {
  sessionId: string;
  startsAt: Date;
  endsAt: Date;
  opensAt: Date;
  closesAt: Date;
}

export type DoorState =
  | { open: true; window: DoorWindow }
  | {
      open: false;
      /** When the door opens next, if a session is left. */
      opensAt: Date | null;
      /** When it last closed, if it had opened. */
      closedAt: Date | null;
    };

/** The doors of an event's sessions not cancelled, by start. */
export function doorWindows(
  hours: DoorHours,
  sessions: readonly { id: string; startsAt: Date; endsAt: Date }[],
): DoorWindow[] {
  return [...sessions]
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
    .map((s) => ({
      sessionId: s.id,
      startsAt: s.startsAt,
      endsAt: s.endsAt,
      opensAt: new Date(s.startsAt.getTime() - hours.doorHoursBefore * HOUR),
      closesAt: new Date(s.endsAt.getTime() + hours.doorHoursAfter * HOUR),
    }));
}

/**
 * Whether the door is open at `at`, and for which session: one in progress (the first to start),
 * else the next to start whose door has opened (people arrive early), else the last that ended
 * whose door is still open. Closed: when it opens next and when it last closed.
 */
export function doorAt(windows: readonly DoorWindow[], at: Date): DoorState {
  const t = at.getTime();
  const inProgress = windows.find((w) => w.startsAt.getTime() <= t && t <= w.endsAt.getTime());
  const early = windows.find((w) => w.opensAt.getTime() <= t && t < w.startsAt.getTime());
  const late = windows.findLast((w) => w.endsAt.getTime() < t && t <= w.closesAt.getTime());
  const window = inProgress ?? early ?? late;
  if (window) return { open: true, window };
  const next = windows
    .filter((w) => w.opensAt.getTime() > t)
    .reduce<Date | null>((min, w) => (!min || w.opensAt < min ? w.opensAt : min), null);
  const last = windows
    .filter((w) => w.closesAt.getTime() < t)
    .reduce<Date | null>((max, w) => (!max || w.closesAt > max ? w.closesAt : max), null);
  return { open: false, opensAt: next, closedAt: last };
}

/** A closed door in words: "La puerta abre a las 09:00.", "La puerta cerró a las 18:00."… */
export function closedDoorMessage(
  state: { opensAt: Date | null; closedAt: Date | null },
  now: Date,
  timeZone: string,
): string {
  const opens = state.opensAt && formatClockFrom(state.opensAt, now, timeZone);
  const closed = state.closedAt && formatClockFrom(state.closedAt, now, timeZone);
  if (opens && closed) return `La puerta cerró ${closed}; vuelve a abrir ${opens}.`;
  if (opens) return `La puerta abre ${opens}.`;
  if (closed) return `La puerta cerró ${closed}.`;
  return "Este evento no tiene sesiones: la puerta no abre.";
}

/** The door's windows as the page and the phone's copy carry them (times as ISO strings). */
export interface DoorWindowView {
  sessionId: string;
  startsAt: string;
  endsAt: string;
  opensAt: string;
  closesAt: string;
}

export function doorWindowView(w: DoorWindow): DoorWindowView {
  return {
    sessionId: w.sessionId,
    startsAt: w.startsAt.toISOString(),
    endsAt: w.endsAt.toISOString(),
    opensAt: w.opensAt.toISOString(),
    closesAt: w.closesAt.toISOString(),
  };
}

export function doorWindowOf(v: DoorWindowView): DoorWindow {
  return {
    sessionId: v.sessionId,
    startsAt: new Date(v.startsAt),
    endsAt: new Date(v.endsAt),
    opensAt: new Date(v.opensAt),
    closesAt: new Date(v.closesAt),
  };
}
