import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import {
  isRouteErrorResponse,
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from "react-router";
import { compressDocument } from "~/kernel/encoding.server";
import { deferHydration } from "~/kernel/defer-hydration.server";
import { NonceContext } from "~/kernel/nonce";

export const streamTimeout = 5_000;

// The data of a client-side navigation (/profile.data, /_root.data) holds the same personal details
// as the page: never stored by caches either.
export function handleDataRequest(response: Response) {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  return response;
}

// A client's mistake (a POST to a page without a form: 405; an unknown path: 404) is answered, not
// logged: anyone could fill the log with them. Server errors are logged as React Router would.
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  console.error(inner ?? error);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  // Pages carry a per-response CSP nonce and may show who is signed in: never stored by caches.
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "no-store");

  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  // The whole document is rendered first and sent as one buffer: one write, and one call to the
  // compressor. Its scripts are fetched after the first paint (deferHydration). It is compressed
  // here, in one call (compressDocument), unless the page cache keeps it.
  const respond = (html: string) => {
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    // Light mode (decision 049) comes with Save-Data or the switch's cookie.
    responseHeaders.append("Vary", "Cookie, Save-Data");
    const document = Buffer.from(deferHydration(html));
    const compressed = compressDocument(document, loadContext.documentEncoding);
    if (compressed) {
      responseHeaders.set("Content-Encoding", loadContext.documentEncoding);
      responseHeaders.append("Vary", "Accept-Encoding");
    }
    // (A copy of the few compressed bytes: zlib's buffers are typed as possibly shared.)
    const payload = compressed ? Buffer.from(compressed) : document;
    responseHeaders.set("Content-Length", String(payload.length));
    return new Response(payload, { headers: responseHeaders, status: responseStatusCode });
  };
  const page = (
    <NonceContext.Provider value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext.Provider>
  );
  return loadContext.config.pageRender === "stream"
    ? renderStreamed(page, nonce, respond, (status) => (responseStatusCode = status))
    : renderWhole(page, routerContext, respond);
}

/**
 * Every page's data is in hand before rendering (no route streams a deferred value), so the page
 * is rendered to a string (decision 054): a fraction of the stream's CPU. The one thing React
 * Router reads while rendering is its data for the browser (the loader data, turbo-stream encoded,
 * which its StreamTransfer component writes as scripts, suspending on each chunk): it is read here
 * first, chunk by chunk with the same decoder, into the cache StreamTransfer reads, so nothing
 * suspends and the HTML is the same byte for byte (tests/integration/render-modes.test.ts).
 */
async function renderWhole(
  page: React.ReactElement,
  routerContext: EntryContext,
  respond: (html: string) => Response,
) {
  await readHandoff(routerContext);
  // (React's stream writes the doctype before an <html> element; renderToString does not.)
  return respond(`<!DOCTYPE html>${renderToString(page)}`);
}

/** StreamTransfer's cache (react-router's `renderMeta.streamCache`), filled in advance. */
async function readHandoff(routerContext: EntryContext) {
  const stream = routerContext.serverHandoffStream;
  if (!stream) return;
  const renderMeta = (routerContext.renderMeta ??= {});
  const cache = (renderMeta.streamCache ??= {});
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const timeout = setTimeout(() => reader.cancel(), streamTimeout + 1000);
  try {
    for (let identifier = 0; ; identifier++) {
      const result = await reader.read();
      const entry: Promise<void> & { result?: { done: boolean; value: string } } =
        Promise.resolve();
      entry.result = { done: result.done, value: decoder.decode(result.value, { stream: true }) };
      cache[identifier] = entry;
      if (result.done) break;
    }
  } finally {
    clearTimeout(timeout);
    reader.releaseLock();
  }
}

/** PAGE_RENDER=stream: React's stream, collected whole; kept one release (decision 054). */
function renderStreamed(
  page: React.ReactElement,
  nonce: string | undefined,
  respond: (html: string) => Response,
  setStatus: (status: number) => void,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        resolve(respond(Buffer.concat(chunks).toString("utf8")));
        callback();
      },
    });
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timeoutId);
        reject(error);
      },
      onError(error: unknown) {
        setStatus(500);
        if (shellRendered) console.error(error);
      },
    });
  });
}
