// Reads a server-sent event stream over HTTP, as EventSource would, for tests.
export interface StreamEvent {
  event: string;
  data: string;
}

export interface OpenStream {
  status: number;
  contentType: string | null;
  headers: Headers;
  events: StreamEvent[];
  /** Resolves with the first event (already received or still to come) that matches. */
  waitFor(match: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: URL,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { ...headers, cookie, accept: "text/event-stream" },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let finished = false;
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          const data: string[] = [];
          for (const line of frame.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
          }
          if (data.length > 0) {
            events.push({ event, data: data.join("\n") });
            for (const wake of waiters) wake();
          }
        }
      }
    } catch {
      // aborted by close()
    } finally {
      finished = true;
      for (const wake of waiters) wake();
    }
  })();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    headers: response.headers,
    events,
    ended,
    close: () => controller.abort(),
    waitFor(match, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (found) {
            cleanup();
            resolve(found);
          } else if (finished) {
            cleanup();
            reject(new Error("El stream terminó sin el evento esperado"));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `No llegó el evento esperado en ${timeoutMs} ms; llegaron: ${JSON.stringify(events)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
