// A small HTTP client that behaves like a browser for our purposes: it keeps cookies, sends the
// site's Origin on POSTs and follows redirects only when asked. To a server this test process
// started, a GET goes once the server has heard of every write committed before it (the test's
// own through the models included), as a person's next page would: pages come from the page
// cache and from what the server keeps in memory, both kept up to date by NOTIFY.
import http from "node:http";
import { serverAt } from "./server";

export interface Reply {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
  url: string;
}

export class BrowserClient {
  readonly cookies = new Map<string, string>();

  /**
   * With `newConnections`, every request goes over a connection of its own, as from browsers
   * that are not this process's one pool: each may reach any worker of a cluster.
   */
  constructor(
    readonly base: URL,
    private readonly options: { newConnections?: boolean } = {},
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    target: string,
    options: { body?: BodyInit; headers?: Record<string, string>; origin?: string | null } = {},
  ): Promise<Reply> {
    const url = new URL(target, this.base);
    if (method === "GET" || method === "HEAD") await serverAt(url)?.settled?.();
    const headers = new Headers(options.headers);
    if (this.cookies.size > 0) headers.set("Cookie", this.cookieHeader());
    if (method !== "GET" && method !== "HEAD" && options.origin !== null) {
      headers.set("Origin", options.origin ?? this.base.origin);
    }
    const init = { method, body: options.body, headers, redirect: "manual" } as const;
    const response = await (this.options.newConnections ? fetchOnce : fetch)(url, init);
    this.store(response.headers);
    const location = response.headers.get("location");
    return {
      status: response.status,
      location: location ? new URL(location, url).toString() : null,
      headers: response.headers,
      text: await response.text(),
      url: url.toString(),
    };
  }

  get(target: string, headers?: Record<string, string>) {
    return this.request("GET", target, { headers });
  }

  /** Posts a form as a browser would (application/x-www-form-urlencoded). */
  post(
    target: string,
    fields: Record<string, string | string[]> | URLSearchParams,
    options: { origin?: string | null; headers?: Record<string, string> } = {},
  ) {
    const body = fields instanceof URLSearchParams ? fields : new URLSearchParams();
    if (!(fields instanceof URLSearchParams)) {
      for (const [key, value] of Object.entries(fields)) {
        for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
      }
    }
    return this.request("POST", target, { body, origin: options.origin, headers: options.headers });
  }

  /** Follows redirects from `reply` until a non-redirect answer; returns every hop. */
  async follow(reply: Reply, limit = 15): Promise<Reply[]> {
    const hops = [reply];
    let current = reply;
    while (current.location && current.status >= 300 && current.status < 400) {
      if (hops.length > limit) throw new Error("Demasiadas redirecciones");
      current = await this.get(current.location);
      hops.push(current);
    }
    return hops;
  }
}

/** fetch over a connection opened for this request and closed after it. */
async function fetchOnce(url: URL, init: RequestInit): Promise<Response> {
  const body = init.body === undefined ? undefined : await new Response(init.body).text();
  const headers = new Headers(init.headers);
  if (body !== undefined && !headers.has("Content-Type"))
    headers.set("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8");
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: init.method, headers: Object.fromEntries(headers), agent: false },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const replyHeaders = new Headers();
          for (let i = 0; i < answer.rawHeaders.length; i += 2)
            replyHeaders.append(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
          const status = answer.statusCode ?? 500;
          const empty = status === 204 || status === 304;
          resolve(
            new Response(empty ? null : Buffer.concat(chunks), { status, headers: replyHeaders }),
          );
        });
        answer.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export function pathOf(url: string | null): string | null {
  if (!url) return null;
  const u = new URL(url);
  return u.pathname + u.search;
}
