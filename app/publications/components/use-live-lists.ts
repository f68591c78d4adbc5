import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";

export const PUBLICATIONS_STREAM_PATH = "/projectsandnotes/stream";
const PUBLICATION_LISTS_PATH = "/projectsandnotes/listas";

interface Item {
  id: string;
  version: string;
}
interface LiveLists<T extends Item = Item> {
  notes: T[];
  resources: T[];
  projects: T[];
}
interface Change {
  kind: "note" | "resource" | "project";
  action: "created" | "updated" | "deleted";
  id: string;
  version?: string;
}

const LIST_OF = { note: "notes", resource: "resources", project: "projects" } as const;

/** Whether the lists already show this change (the admin's own save, read back by the loader). */
function shows(lists: LiveLists, change: Change): boolean {
  const item = lists[LIST_OF[change.kind]].find((i) => i.id === change.id);
  if (change.action === "deleted") return !item;
  return item !== undefined && change.version !== undefined && item.version === change.version;
}

function parseChange(data: unknown): Change | null {
  try {
    const value = JSON.parse(String(data)) as Partial<Change>;
    if (value.kind && value.kind in LIST_OF && typeof value.id === "string" && value.action)
      return value as Change;
  } catch {
    // not ours
  }
  return null;
}

/** The reason this hook gives the requests it cancels, so that it can tell them apart. */
const SUPERSEDED = "superseded";

/**
 * The publications admin's lists, kept current (§7): the live stream names each change; a change these
 * lists do not show yet (another admin's) reads the lists again, a change they already show (this
 * admin's own save, which the page's own loader has just read) is skipped (decision 016). The
 * lists are read with this hook's own request, never through React Router's fetchers, so that a
 * navigation never cancels a request the hook does not expect to be cancelled.
 */
export function useLiveLists<L extends LiveLists>(fromLoader: L): { connected: boolean; lists: L } {
  const [source, setSource] = useState(fromLoader);
  const [fresh, setFresh] = useState<L | null>(null);
  if (source !== fromLoader) {
    // The page's loader ran (a save, a navigation): its lists are the newest.
    setSource(fromLoader);
    setFresh(null);
  }
  const lists = source !== fromLoader ? fromLoader : (fresh ?? fromLoader);
  const current = useRef(lists);
  current.current = lists;

  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = navigation.state !== "idle";
  const pending = useRef<Change[]>([]);
  const reload = useRef<() => void>(() => {});
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    let controller: AbortController | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let dropped = false;
    let everything = false;

    const read = () => {
      controller?.abort(SUPERSEDED);
      const mine = new AbortController();
      controller = mine;
      fetch(PUBLICATION_LISTS_PATH, {
        signal: mine.signal,
        headers: { Accept: "application/json" },
      })
        .then(async (response) => {
          if (!response.ok) return;
          const body = (await response.json()) as L;
          if (!mine.signal.aborted) setFresh(body);
        })
        .catch(() => {
          // Cancelled (SUPERSEDED, or the page went away) or the network dropped: the stream's
          // reconnection reads the lists again.
          if (!mine.signal.aborted) dropped = true;
        });
    };

    /** Reads the lists if a pending change is not shown yet; waits while a save is on its way. */
    const settle = () => {
      if (busy.current) return;
      const unseen = pending.current.filter((change) => !shows(current.current, change));
      pending.current = [];
      if (everything || unseen.length > 0) read();
      everything = false;
    };
    reload.current = settle;

    const schedule = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        settle();
      }, 100);
    };

    const stream = new EventSource(PUBLICATIONS_STREAM_PATH);
    stream.addEventListener("open", () => {
      setConnected(true);
      // Changes made while the stream was down were not announced: read the lists again.
      if (dropped) {
        everything = true;
        schedule();
      }
      dropped = false;
    });
    stream.addEventListener("error", () => {
      setConnected(false);
      dropped = true;
    });
    stream.addEventListener("content", (event) => {
      const change = parseChange((event as MessageEvent).data);
      if (!change) return;
      pending.current.push(change);
      schedule();
    });
    return () => {
      if (timer) clearTimeout(timer);
      stream.close();
      controller?.abort(SUPERSEDED);
    };
  }, []);

  // A change that arrived while this admin's own save was on its way is weighed once the page
  // has its new data.
  useEffect(() => {
    if (navigation.state === "idle" && pending.current.length > 0) reload.current();
  }, [navigation.state, lists]);

  return { connected, lists };
}
