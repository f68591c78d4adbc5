// formatDateTime of app/lib/time.ts with its Intl formatter made once per time zone: a list of
// events formats dozens of dates per page, and making a formatter costs ~60 times formatting one.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatEventDateTime(instant: Date | string, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("es-BO", { timeZone, dateStyle: "full", timeStyle: "short" });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(new Date(instant));
}
