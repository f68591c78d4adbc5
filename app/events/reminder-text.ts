// The reminder a member sends themselves, or a group, by WhatsApp with one tap (decision 047):
// what, when, where, their door code and the link. No paid messaging API: a wa.me link with the
// text written for them.
import { formatDateTimeRange } from "~/kernel/time";

export function reminderText(input: {
  nombreEvento: string;
  /** The next session's (or the event's) start and end. */
  startsAt: Date | string;
  endsAt: Date | string;
  place: string;
  /** Their door code, when the event has a door. */
  code: string | null;
  url: string;
  timeZone: string;
}): string {
  return [
    `Recordatorio: ${input.nombreEvento}`,
    formatDateTimeRange(input.startsAt, input.endsAt, input.timeZone),
    input.place,
    input.code ? `Mi código de registro: ${input.code}` : null,
    input.url,
  ]
    .filter(Boolean)
    .join("\n");
}
