import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
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

  // Every page's data is in hand before rendering (no route streams a deferred value), so the
  // whole document is rendered first and sent as one buffer: one write, and one call to the
  // compressor, instead of one per chunk React flushes. Its scripts are fetched after the first
  // paint (deferHydration). It is compressed here, in one call (compressDocument), unless the page
  // cache keeps it.
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        // Light mode (decision 049) comes with Save-Data or the switch's cookie.
        responseHeaders.append("Vary", "Cookie, Save-Data");
        const document = Buffer.from(deferHydration(Buffer.concat(chunks).toString("utf8")));
        const compressed = compressDocument(document, loadContext.documentEncoding);
        if (compressed) {
          responseHeaders.set("Content-Encoding", loadContext.documentEncoding);
          responseHeaders.append("Vary", "Accept-Encoding");
        }
        // (A copy of the few compressed bytes: zlib's buffers are typed as possibly shared.)
        const payload = compressed ? Buffer.from(compressed) : document;
        responseHeaders.set("Content-Length", String(payload.length));
        resolve(new Response(payload, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
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
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
