// The check-in page's offline engine (docs/decisions/019-check-in.md). Every mark made on this
// phone goes to a queue in IndexedDB first (./check-in-store.ts, with the participant list as last
// received) and is sent to the page's data route, …/registro/datos, at once when online, when the
// connection returns and every 20 s; the server keeps the first time. The service worker
// (app/attendance/offline-worker.js, served at /registro-sw.js) keeps the page for the next visit
// without a connection. The hook returns
// what the page shows: the list with this phone's marks, the connection, the queue, the last
// outcome, and whether the script has taken over from the form posts (`local`).
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { EVENT_MESSAGES } from "~/events/messages";
import {
  eventIdOfToken,
  normalizeCheckInCode,
  type CheckInPayload,
  type CheckInPerson,
  type CheckInReply,
} from "~/attendance/check-in";
import {
  forgetCheckIn,
  loadList,
  pendingCheckIns,
  queueCheckIn,
  saveList,
} from "~/attendance/check-in-store";
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import { closedDoorMessage, doorAt, doorWindowOf, type DoorWindowView } from "~/attendance/door";
import {
  askDataRoute,
  useKeptForOffline,
  useOneAtATime,
  useSyncRounds,
} from "~/kernel/offline-page";

/** What the admin sees after a scan or a typed code. */
export type CheckInOutcome =
  | { kind: "in" | "already"; person: CheckInPerson; note?: string }
  | { kind: "refused"; message: string; person?: CheckInPerson; typed?: boolean };

function replyToOutcome(
  reply: CheckInReply,
  people: CheckInPerson[],
  typed: boolean,
): CheckInOutcome {
  if (!reply.ok) return { kind: "refused", message: reply.message, typed };
  const known = people.find((p) => p.userId === reply.userId);
  const person: CheckInPerson = {
    ...(known ?? { userId: reply.userId, token: "", code: "" }),
    nombre: reply.nombre,
    photoURL: reply.photoURL,
    checkedInAt: reply.checkedInAt,
    checkedInBy: reply.checkedInBy,
    notValid: null,
  };
  return { kind: reply.outcome === "checkedIn" ? "in" : "already", person };
}

/**
 * The server's answer to a check-in as a reply: its JSON reply, or a refusal of the whole request
 * (a role taken back, a staff link revoked), whose body is the Spanish message as a JSON string.
 */
async function readReply(response: Response): Promise<CheckInReply | null> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body === "string" && body !== "") return { ok: false, message: body };
  if (typeof body === "object" && body !== null && "ok" in body) return body as CheckInReply;
  return null;
}

/** The list as the phone keeps it (the page's data without what only the page needs). */
function checkInCopy(page: CheckInPayload): CheckInPayload {
  const { generatedAt, event, doors, participants } = page;
  return { generatedAt, event, doors, participants };
}

/** The door at `at`, and in words when it is closed. */
function doorNow(doors: readonly DoorWindowView[], at: Date, timeZone: string) {
  const state = doorAt(doors.map(doorWindowOf), at);
  return { open: state.open, closed: state.open ? null : closedDoorMessage(state, at, timeZone) };
}

/**
 * The door as the page shows it: from the time the page was made (as the server rendered it), then
 * from the phone's clock, again at each moment a door opens or closes.
 */
function useDoor(doors: readonly DoorWindowView[], generatedAt: string, timeZone: string) {
  const [clock, setClock] = useState(() => new Date(generatedAt));
  useEffect(() => setClock(new Date()), []);
  useEffect(() => {
    const t = clock.getTime();
    const next = Math.min(
      ...doors
        .flatMap((d) => [d.opensAt, d.startsAt, d.endsAt, d.closesAt].map(Date.parse))
        .map((b) => b + 1)
        .filter((b) => b > t),
    );
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(() => setClock(new Date()), Math.min(next - t, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [doors, clock]);
  return useMemo(() => doorNow(doors, clock, timeZone), [doors, clock, timeZone]);
}

/**
 * Check-in for the event of `page` (the list the server rendered the page with). `noScriptReply`
 * is the answer to a code posted without JavaScript, shown until the next check-in.
 */
export function useCheckInSync(
  page: CheckInPayload,
  timeZone: string,
  noScriptReply?: CheckInReply,
) {
  const { event } = page;
  const [people, setPeople] = useState<CheckInPerson[]>(page.participants);
  const [doors, setDoors] = useState<DoorWindowView[]>(page.doors);
  const doorsRef = useRef(doors);
  doorsRef.current = doors;
  const door = useDoor(doors, page.generatedAt, timeZone);
  const [outcome, setOutcome] = useState<CheckInOutcome | null>(
    noScriptReply ? replyToOutcome(noScriptReply, page.participants, true) : null,
  );
  const [online, setOnline] = useState(true);
  const [pending, setPending] = useState(0);
  // Until the script runs (and without JavaScript) the form posts to the server.
  const [local, setLocal] = useState(false);
  const [sessionEnded, setSessionEnded] = useState(false);
  const peopleRef = useRef(people);
  peopleRef.current = people;
  const dataUrl = `/admin/eventos/${event.id}/registro/datos`;

  /** Puts the queued check-ins over a list from the server: what this phone knows counts too. */
  const withPending = useCallback(
    async (list: CheckInPerson[]) => {
      const queued = await pendingCheckIns(event.id);
      setPending(queued.length);
      const byUser = new Map(queued.map((q) => [q.userId, q.at]));
      return list.map((p) =>
        !p.checkedInAt && byUser.has(p.userId) ? { ...p, checkedInAt: byUser.get(p.userId)! } : p,
      );
    },
    [event.id],
  );

  // What a request to the data route does when the connection or the session is gone.
  const ends = useMemo(
    () => ({ offline: () => setOnline(false), sessionEnded: () => setSessionEnded(true) }),
    [],
  );

  const refresh = useCallback(async () => {
    try {
      const response = await askDataRoute(dataUrl, { cache: "no-store" }, ends);
      if (!response?.ok) return;
      const fresh = (await response.json()) as CheckInPayload;
      await saveList(fresh);
      setDoors(fresh.doors);
      setPeople(await withPending(fresh.participants));
      // An answer that arrives after the browser went offline does not say 'En línea'.
      setOnline(navigator.onLine);
    } catch {
      setOnline(false);
    }
  }, [dataUrl, ends, withPending]);

  /** Sends the queued check-ins, oldest first; stops at the first that cannot be sent. */
  const sendQueued = useCallback(async () => {
    try {
      for (const item of await pendingCheckIns(event.id)) {
        const response = await askDataRoute(
          dataUrl,
          {
            method: "POST",
            body: new URLSearchParams({ token: item.token, marcadoEn: item.at }),
          },
          ends,
        );
        if (!response || response.status >= 500) return;
        setOnline(navigator.onLine);
        const reply = await readReply(response);
        await forgetCheckIn(event.id, item.userId);
        if (reply?.ok) {
          setPeople((list) =>
            list.map((p) =>
              p.userId === reply.userId
                ? { ...p, checkedInAt: reply.checkedInAt, checkedInBy: reply.checkedInBy }
                : p,
            ),
          );
        } else {
          // Refused (the person left the event, say): this phone's mark is undone and said why.
          const person = peopleRef.current.find((p) => p.userId === item.userId);
          setPeople((list) =>
            list.map((p) => (p.userId === item.userId ? { ...p, checkedInAt: null } : p)),
          );
          setOutcome({
            kind: "refused",
            person,
            message: reply && !reply.ok ? reply.message : EVENT_MESSAGES.participationFailed,
          });
        }
      }
    } finally {
      setPending((await pendingCheckIns(event.id)).length);
    }
  }, [dataUrl, ends, event.id]);
  // A check-in made while others are being sent goes right after them.
  const send = useOneAtATime(sendQueued);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // A copy of the page kept for offline use may be older than the list this phone saved.
      const saved = await loadList<CheckInPayload>(event.id).catch(() => undefined);
      const newer = saved !== undefined && saved.generatedAt > page.generatedAt;
      // A copy kept before the door's hours travelled with it takes the page's.
      const base = newer ? { ...saved, doors: saved.doors ?? page.doors } : checkInCopy(page);
      if (!newer) await saveList(base);
      const list = await withPending(base.participants);
      if (cancelled) return;
      setDoors(base.doors);
      setPeople(list);
      setOnline(navigator.onLine);
      setLocal(true);
      if (navigator.onLine) await send();
    })().catch(() => setLocal(false));
    return () => {
      cancelled = true;
    };
  }, [event.id, page, send, withPending]);

  useSyncRounds(send, refresh, setOnline);
  useKeptForOffline("/registro-sw.js", () => "/admin/eventos/");

  /** The reason nobody can be marked now, the door being closed (the phone's clock decides). */
  function closedNow(): string | null {
    return doorNow(doorsRef.current, new Date(), timeZone).closed;
  }

  /** Marks a recognised person present here, queues it and sends it when it can. */
  async function markPresent(person: CheckInPerson) {
    const closed = closedNow();
    if (closed) return setOutcome({ kind: "refused", message: closed, person });
    if (person.notValid) {
      // Treasury may have confirmed the payment since this phone kept its list: online, the
      // server decides; offline, the pass is refused with the list's reason.
      if (navigator.onLine) return askServer("token", person.token, person.notValid);
      setOutcome({ kind: "refused", message: person.notValid, person });
      return;
    }
    if (person.checkedInAt) {
      setOutcome({ kind: "already", person });
      return;
    }
    const at = new Date().toISOString();
    await queueCheckIn({ eventId: event.id, userId: person.userId, token: person.token, at });
    const marked = { ...person, checkedInAt: at, checkedInBy: null };
    setPeople((list) => list.map((p) => (p.userId === person.userId ? marked : p)));
    setOutcome({ kind: "in", person: marked });
    setPending((n) => n + 1);
    if (navigator.onLine) void send();
  }

  /** Someone this phone does not know (they joined since the list was kept): the server decides. */
  async function askServer(field: "token" | "codigo", value: string, fallback: string) {
    const typed = field === "codigo";
    const closed = closedNow();
    if (closed) return setOutcome({ kind: "refused", message: closed, typed });
    if (!navigator.onLine) {
      setOutcome({ kind: "refused", message: fallback, typed });
      return;
    }
    try {
      const response = await fetch(dataUrl, {
        method: "POST",
        body: new URLSearchParams({ [field]: value }),
        redirect: "manual",
      });
      if (response.type === "opaqueredirect") return setSessionEnded(true);
      const reply = (await readReply(response)) ?? { ok: false, message: fallback };
      setOutcome(replyToOutcome(reply, peopleRef.current, typed));
      if (reply.ok) void refresh();
    } catch {
      setOnline(false);
      setOutcome({ kind: "refused", message: fallback, typed });
    }
  }

  /** A value read from a QR code. */
  function scanned(value: string) {
    const token = value.trim();
    const person = peopleRef.current.find((p) => p.token === token);
    if (person) return void markPresent(person);
    const otherEvent = eventIdOfToken(token);
    if (otherEvent === null)
      return setOutcome({ kind: "refused", message: ATTENDANCE_MESSAGES.checkInTokenInvalid });
    if (otherEvent !== event.id)
      return setOutcome({ kind: "refused", message: ATTENDANCE_MESSAGES.checkInTokenOtherEvent });
    void askServer("token", token, ATTENDANCE_MESSAGES.checkInTokenInvalid);
  }

  /** A code typed by the admin; false when it cannot be a code (the field says so and keeps it). */
  function typed(value: string): boolean {
    const code = normalizeCheckInCode(value);
    if (!code) {
      setOutcome({
        kind: "refused",
        message: ATTENDANCE_MESSAGES.checkInCodeMalformed,
        typed: true,
      });
      return false;
    }
    const person = peopleRef.current.find((p) => p.code === code);
    if (person) void markPresent(person);
    else void askServer("codigo", code, ATTENDANCE_MESSAGES.checkInCodeUnknown);
    return true;
  }

  return {
    people,
    door,
    outcome,
    online,
    pending,
    sessionEnded,
    local,
    markPresent,
    scanned,
    typed,
  };
}
