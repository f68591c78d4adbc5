// The judge's screen's offline engine (decision 059), as the door's check-in does it (decision
// 019): every entry made on this phone gets its id here and goes to a queue in IndexedDB first
// (./judge-store.ts, with the category's state as last received), then to the screen's data route
// (…/jurado/:categoryId/datos) at once when online, when the connection returns and every 20 s.
// The server stores an id once, so a resend is harmless ('Ya estaba anotado'). Each entry keeps
// the server's answer — saved, same, conflict, corrected or refused with its message — so that
// nothing sent is silently lost. The service worker (app/attendance/offline-worker.js, served at
// /jurado-sw.js) keeps the page for the next visit without a connection. The hook also works out,
// with the formats' pure rules, what the entries not yet sent change: a bracket's next round, a
// team's runs and place.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { JudgeBoard } from "./board.server";
import { bracketOf, type Bracket } from "./bracket";
import {
  newEntryId,
  parseEntry,
  type EntryFields,
  type EntryIntent,
  type EntryReply,
  type ParsedEntry,
} from "./judge-entry";
import {
  answerEntry,
  loadBoard,
  putEntry,
  saveBoard,
  storedEntries,
  type StoredEntry,
} from "./judge-store";
import {
  askDataRoute,
  useKeptForOffline,
  useOneAtATime,
  useSyncRounds,
} from "~/kernel/offline-page";
import { JUDGING_MESSAGES } from "./messages";
import type { TieRuleOf } from "./rules";
import { rankTimeTrial, type Run } from "./time-trial";

/** A run on this screen: stored (standing or in conflict) or waiting on this phone. */
export interface ShownRun {
  teamId: string;
  attempt: number;
  timeMs: number | null;
  penaltyMs: number;
  state: "standing" | "conflict" | "pending";
}

export interface ShownSheet {
  teamId: string;
  points: Record<string, number>;
  state: "standing" | "conflict" | "pending";
}

/** The server's answer to an entry: its JSON reply, or a whole refusal's message (a JSON string). */
async function readReply(response: Response): Promise<EntryReply | null> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body === "string" && body !== "") return { ok: false, message: body };
  if (typeof body === "object" && body !== null && "ok" in body && "message" in body)
    return body as EntryReply;
  return null;
}

function parsed(entry: StoredEntry, board: JudgeBoard): ParsedEntry | null {
  try {
    return parseEntry(entry.intent, entry.fields, board.category);
  } catch {
    return null;
  }
}

/** Runs `work` in one tab at a time (two tabs of the screen never send the same queue at once). */
async function oneTabAtATime(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (locks) await locks.request("ayllu-jurado", async () => await work());
  else await work();
}

export function useJudgeSync(page: JudgeBoard) {
  const { id: categoryId, eventId } = page.category;
  // Whose screen this is: entries are made, kept and sent under this account only.
  const me = page.judgeId;
  const [board, setBoardState] = useState<JudgeBoard>(page);
  // The newest state seen: an older answer (two requests crossing) never replaces it.
  const newest = useRef(page.generatedAt);
  const setBoard = useCallback((next: JudgeBoard) => {
    if (next.generatedAt < newest.current) return;
    newest.current = next.generatedAt;
    setBoardState(next);
  }, []);
  const [entries, setEntries] = useState<StoredEntry[]>([]);
  const [online, setOnline] = useState(true);
  // Until the script runs (and without JavaScript) the forms post to the page.
  const [local, setLocal] = useState(false);
  const [sessionEnded, setSessionEnded] = useState(false);
  const dataUrl = `/admin/eventos/${eventId}/jurado/${categoryId}/datos`;

  const reload = useCallback(async () => {
    setEntries(await storedEntries(me, categoryId));
  }, [me, categoryId]);

  // What a request to the data route does when the connection or the session is gone.
  const ends = useMemo(
    () => ({ offline: () => setOnline(false), sessionEnded: () => setSessionEnded(true) }),
    [],
  );

  const refresh = useCallback(async () => {
    try {
      const response = await askDataRoute(dataUrl, { cache: "no-store" }, ends);
      if (!response?.ok) return;
      const fresh = (await response.json()) as JudgeBoard;
      // Signed in as someone else now: this screen's account stops here.
      if (fresh.judgeId !== me) {
        setSessionEnded(true);
        return;
      }
      if (fresh.generatedAt >= newest.current) await saveBoard(fresh);
      setBoard(fresh);
      // An answer that arrives after the browser went offline does not say 'En línea'.
      setOnline(navigator.onLine);
      // Signed in again (in another tab, say): the entries waiting can go now.
      setSessionEnded(false);
    } catch {
      setOnline(false);
    }
  }, [dataUrl, ends, me, setBoard]);

  /** Sends the entries waiting, oldest first; stops at the first that cannot be sent. */
  const sendWaiting = useCallback(async () => {
    let sent = false;
    try {
      await oneTabAtATime(async () => {
        // Entries made while these are sent join the round.
        const tried = new Set<string>();
        for (;;) {
          const entry = (await storedEntries(me, categoryId)).find(
            (e) => e.answer === null && !tried.has(e.id),
          );
          if (!entry) break;
          tried.add(entry.id);
          const response = await askDataRoute(
            dataUrl,
            {
              method: "POST",
              body: new URLSearchParams({
                ...entry.fields,
                intent: entry.intent,
                anotacion: entry.id,
                // The server refuses it under any other account.
                cuenta: entry.userId,
              }),
            },
            ends,
          );
          if (!response || response.status >= 500) return;
          const reply = await readReply(response);
          // Not our server's answer (a captive portal, a proxy): it waits for the next try.
          if (reply === null) return;
          setOnline(navigator.onLine);
          // Made under another account than the one signed in now: it waits for its own.
          if (response.status === 409 && reply.message === JUDGING_MESSAGES.otherAccount) {
            setSessionEnded(true);
            return;
          }
          await answerEntry(entry, reply);
          sent = true;
          await reload();
        }
      });
    } finally {
      await reload();
    }
    if (sent) await refresh();
  }, [me, categoryId, dataUrl, ends, refresh, reload]);
  // An entry made while others are being sent goes right after them.
  const send = useOneAtATime(sendWaiting);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      // A copy of the page kept for offline use may be older than the state this phone saved.
      const saved = await loadBoard<JudgeBoard>(me, categoryId).catch(() => undefined);
      const newer = saved !== undefined && saved.generatedAt > page.generatedAt;
      if (!newer) await saveBoard(page);
      if (cancelled) return;
      if (newer) setBoard(saved);
      else setBoard(page);
      await reload();
      setOnline(navigator.onLine);
      setLocal(true);
      if (navigator.onLine) await send();
    })().catch(() => setLocal(false));
    return () => {
      cancelled = true;
    };
  }, [me, categoryId, page, reload, send, setBoard]);

  useSyncRounds(send, refresh, setOnline);
  // Scoped to this page alone: it never takes over the door's check-in or 'Mis entradas'.
  useKeptForOffline("/jurado-sw.js", () => location.pathname);

  /** Queues an entry on this phone and sends it when it can. */
  async function submit(intent: EntryIntent, fields: EntryFields, label: string) {
    const entry: StoredEntry = {
      id: newEntryId(),
      categoryId,
      userId: me,
      intent,
      fields,
      label,
      at: new Date().toISOString(),
      answer: null,
    };
    await putEntry(entry);
    await reload();
    if (navigator.onLine) void send();
  }

  const pending = entries.filter((e) => e.answer === null);

  const shown = useMemo(() => {
    const parse = (list: StoredEntry[]) =>
      list.flatMap((entry) => {
        const value = parsed(entry, board);
        return value ? [value] : [];
      });
    const waiting = parse(pending);
    // Taken by the server but perhaps not in the state last received (the connection dropped
    // before it came): shown where the state has nothing yet, until it does.
    const taken = parse(
      entries.filter((e) => e.answer?.ok === true && e.answer.outcome !== "conflict"),
    );
    // Time trial: the runs stored, and this phone's waiting for a run not stored yet.
    const runs: ShownRun[] = board.runs.map((r) => ({
      ...r,
      state: r.conflict ? "conflict" : "standing",
    }));
    for (const t of taken)
      if (
        t.intent === "vuelta" &&
        !runs.some(
          (r) => r.teamId === t.teamId && r.attempt === t.attempt && r.state !== "conflict",
        )
      )
        runs.push({
          teamId: t.teamId,
          attempt: t.attempt,
          timeMs: t.timeMs,
          penaltyMs: t.penaltyMs,
          state: "standing",
        });
    for (const w of waiting)
      if (w.intent === "vuelta")
        runs.push({
          teamId: w.teamId,
          attempt: w.attempt,
          timeMs: w.timeMs,
          penaltyMs: w.penaltyMs,
          state: "pending",
        });
    const counting: Run[] = [];
    for (const run of runs) {
      if (run.state === "conflict") continue;
      if (counting.some((c) => c.teamId === run.teamId && c.attempt === run.attempt)) continue;
      counting.push(run);
    }
    const ranking =
      board.category.format === "tiempo"
        ? rankTimeTrial(
            board.teams.map((t) => t.id),
            counting,
            {
              attempts: board.category.attempts,
              tieRule: board.category.tieRule as TieRuleOf<"tiempo">,
            },
          )
        : [];
    // Bracket: the rounds stored, then this phone's waiting, in order.
    let bracket: Bracket | null = null;
    const pendingRounds = new Map<string, number>();
    if (board.bracket) {
      const played = new Map<string, string[]>(
        Object.entries(board.bracket.played).map(([k, v]) => [k, [...v]]),
      );
      for (const w of [...taken, ...waiting]) {
        if (w.intent !== "ronda") continue;
        const list = played.get(w.matchId) ?? [];
        if (list.length === w.round - 1) {
          list.push(w.winnerTeamId);
          played.set(w.matchId, list);
          if (waiting.includes(w)) pendingRounds.set(`${w.matchId}/${w.round}`, 1);
        }
      }
      bracket = bracketOf(
        board.bracket.seeded,
        played,
        board.category.tieRule as TieRuleOf<"llaves">,
      );
    }
    // Score sheet: this judge's sheets, and those waiting.
    const sheets: ShownSheet[] = board.sheets.map((s) => ({
      ...s,
      state: s.conflict ? "conflict" : "standing",
    }));
    for (const t of taken)
      if (t.intent === "hoja" && !sheets.some((x) => x.teamId === t.teamId))
        sheets.push({ teamId: t.teamId, points: t.points, state: "standing" });
    for (const w of waiting)
      if (w.intent === "hoja")
        sheets.push({ teamId: w.teamId, points: w.points, state: "pending" });
    return { runs, ranking, bracket, pendingRounds, sheets };
    // `pending` changes with `entries`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board, entries]);

  return {
    board,
    entries,
    pending: pending.length,
    online,
    local,
    sessionEnded,
    submit,
    ...shown,
  };
}
