import type { EventState } from "~/events/event-state";

/**
 * An event's state as its page, its card and the admin's row show it: 'En curso' (highlighted)
 * from its start to its end, 'Finalizado' afterwards, nothing before it starts.
 */
export function stateBadge(state: EventState): string | { text: string; className: string } | null {
  if (state === "ongoing") return { text: "En curso", className: "badge-live" };
  return state === "ended" ? "Finalizado" : null;
}

/** The state as a badge, or nothing for an upcoming event. */
export function EventStateBadge({ state }: { state: EventState }) {
  const badge = stateBadge(state);
  if (badge === null) return null;
  return typeof badge === "string" ? (
    <span className="badge">{badge}</span>
  ) : (
    <span className={`badge ${badge.className}`}>{badge.text}</span>
  );
}
