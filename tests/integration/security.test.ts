import { randomUUID } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { createSession } from "~/members/session.server";
import { signInWithIdentity } from "~/members/user.server";
import { loadConfig } from "~/kernel/config.server";
import { startAppendingProxy } from "../helpers/appending-proxy";
import { BrowserClient } from "../helpers/browser-client";
import { startConfiguredServer } from "../helpers/configured-server";
import { startTestServer, TEST_ENV, type TestServer } from "../helpers/server";
import { signInMember, signInNewcomer } from "../helpers/sign-in";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const newClient = () => new BrowserClient(server.url);

/** The Content-Security-Policy as a map from directive name to its sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

function nonceOf(csp: Map<string, string[]>): string {
  const source = csp.get("script-src")?.find((s) => s.startsWith("'nonce-"));
  if (!source) throw new Error("script-src no tiene nonce");
  return source.slice("'nonce-".length, -1);
}

/** A server started as in production: NODE_ENV=production, https PUBLIC_URL, an external provider. */
function startProductionServer() {
  return startConfiguredServer({
    NODE_ENV: "production",
    PUBLIC_URL: "https://ayllu.example",
    TRUST_PROXY: "1",
    // The server is handed the test database; DATABASE_URL only satisfies the production check.
    DATABASE_URL: "postgres://ayllu@db.invalid/ayllu",
    OIDC_ISSUER: "https://login.ayllu.example",
    OIDC_CLIENT_ID: "ayllu",
    OIDC_CLIENT_SECRET: "secreto-del-cliente",
  });
}

test("an HTML page carries an enforced Content-Security-Policy and the other security headers", async () => {
  const reply = await newClient().get("/login");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toMatch(/^text\/html/);
  expect(reply.headers.get("content-security-policy-report-only")).toBeNull();
  const csp = parseCsp(reply.headers.get("content-security-policy"));
  const nonce = nonceOf(csp);
  expect(nonce.length).toBeGreaterThanOrEqual(16);
  expect(csp.get("default-src")).toEqual(["'none'"]);
  expect(csp.get("script-src")).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  // The development provider lives on this same origin.
  expect(csp.get("form-action")).toEqual(["'self'"]);
  expect(csp.get("img-src")).toContain("https:");
  expect(csp.get("frame-src")).toEqual(
    expect.arrayContaining(["https://www.youtube-nocookie.com"]),
  );
  for (const directive of csp.values()) {
    expect(directive).not.toContain("'unsafe-eval'");
    expect(directive).not.toContain("*");
  }
  expect(csp.get("script-src")).not.toContain("'unsafe-inline'");

  expect(reply.headers.get("x-content-type-options")).toBe("nosniff");
  expect(reply.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(reply.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  expect(reply.headers.get("cross-origin-resource-policy")).toBe("same-origin");
  expect(reply.headers.get("x-powered-by")).toBeNull();
  expect(reply.headers.get("strict-transport-security")).toBeNull();
});

test("every response gets its own CSP nonce, and every script on the page carries it", async () => {
  // A signed-in member's pages are rendered for every request. A visitor's second request may be
  // answered from the page cache, whose pages allow their scripts by hash (page-cache.test.ts).
  const client = await signInMember(server.url, `nonce-${randomUUID()}@example.com`);
  const first = await client.get("/");
  const second = await client.get("/");
  const firstNonce = nonceOf(parseCsp(first.headers.get("content-security-policy")));
  const secondNonce = nonceOf(parseCsp(second.headers.get("content-security-policy")));
  expect(firstNonce).not.toBe(secondNonce);

  for (const [page, nonce] of [
    [first, firstNonce],
    [second, secondNonce],
  ] as const) {
    const scripts = page.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  }
});

test("in production the site also sends HSTS, upgrades insecure requests and lets forms go to the provider", async () => {
  const production = await startProductionServer();
  try {
    expect(production.config.production).toBe(true);
    const reply = await new BrowserClient(production.address).get("/login");
    expect(reply.status).toBe(200);
    const hsts = reply.headers.get("strict-transport-security") ?? "";
    expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
    const csp = parseCsp(reply.headers.get("content-security-policy"));
    expect(csp.has("upgrade-insecure-requests")).toBe(true);
    expect(csp.get("form-action")).toEqual(["'self'", "https://login.ayllu.example"]);
    expect(csp.get("script-src")).toEqual([`'nonce-${nonceOf(csp)}'`, "'strict-dynamic'"]);
  } finally {
    await production.close();
  }
});

test("pages and page data for a signed-in person are Cache-Control: no-store", async () => {
  const member = await signInMember(server.url, `cache-${randomUUID()}@example.com`);
  for (const path of ["/profile", "/", "/profile.data", "/_root.data"]) {
    const reply = await member.get(path);
    expect(reply.status, path).toBe(200);
    expect(reply.headers.get("cache-control"), path).toBe("no-store");
  }
  const newcomer = await signInNewcomer(server.url, `cache-nueva-${randomUUID()}@example.com`);
  const form = await newcomer.get("/aditionaldata");
  expect(form.status).toBe(200);
  expect(form.headers.get("cache-control")).toBe("no-store");
});

test("an unknown path answers a Spanish 404 page with a link to /inicio", async () => {
  const reply = await newClient().get("/esta-pagina-no-existe");
  expect(reply.status).toBe(404);
  expect(reply.headers.get("content-type")).toMatch(/^text\/html/);
  expect(reply.text).toContain('<html lang="es"');
  expect(reply.text).toContain("Página no encontrada");
  expect(reply.text).toMatch(/<a[^>]*href="\/inicio"[^>]*>Volver al inicio<\/a>/);
  expect(reply.headers.get("content-security-policy")).toContain("default-src 'none'");
});

test("a path that is not valid percent-encoding is answered as a bad request, not a server error", async () => {
  for (const path of ["/%E0%A4%A", "/profile/%E0%A4%A", "/assets/%E0%A4%A"]) {
    const reply = await newClient().get(path);
    expect(reply.status, path).toBe(400);
    expect(reply.text, path).not.toContain("Error del servidor");
  }
  expect((await newClient().get("/healthz")).status).toBe(200);
});

test("GET /healthz answers 200 after checking the database", async () => {
  const reply = await newClient().get("/healthz");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("cache-control")).toBe("no-store");
  expect(JSON.parse(reply.text)).toEqual({ status: "ok", database: "ok" });
});

test("GET /healthz answers 503 when the database is down", async () => {
  const broken = await startConfiguredServer({});
  try {
    const client = new BrowserClient(broken.address);
    expect((await client.get("/healthz")).status).toBe(200);
    await broken.closeDatabase();
    const reply = await client.get("/healthz");
    expect(reply.status).toBe(503);
    expect(JSON.parse(reply.text)).toEqual({ status: "unavailable", database: "unavailable" });
  } finally {
    await broken.close();
  }
});

test("the sign-in rate limit answers 429 after LOGIN_RATE_LIMIT POSTs to /login within a minute", async () => {
  const limited = await startConfiguredServer({ LOGIN_RATE_LIMIT: "3" });
  try {
    const client = new BrowserClient(limited.address);
    for (let i = 0; i < 3; i++) expect((await client.post("/login", {})).status).toBe(302);
    const refused = await client.post("/login", {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.text).toContain("Demasiados intentos de inicio de sesión");
    expect(refused.headers.getSetCookie()).toEqual([]);
    // Only sign-in is limited: the site itself keeps answering.
    expect((await client.get("/login")).status).toBe(200);
  } finally {
    await limited.close();
  }
});

test("with TRUST_PROXY=1 behind an appending proxy, a forged X-Forwarded-For does not reset the sign-in limit", async () => {
  const limited = await startConfiguredServer({ LOGIN_RATE_LIMIT: "3", TRUST_PROXY: "1" });
  const proxy = await startAppendingProxy(limited.address);
  try {
    const client = new BrowserClient(proxy.url);
    const attempt = (i: number) =>
      client.request("POST", "/login", {
        body: new URLSearchParams(),
        origin: limited.publicUrl.origin,
        headers: { "X-Forwarded-For": `203.0.113.${i}` },
      });
    for (let i = 0; i < 3; i++) expect((await attempt(i)).status).toBe(302);
    for (let i = 3; i < 10; i++) expect((await attempt(i)).status).toBe(429);
  } finally {
    await proxy.close();
    await limited.close();
  }
});

test("TRUST_PROXY accepts a number of hops or a list of proxy addresses, and nothing else", () => {
  const config = (value: string) => loadConfig({ ...TEST_ENV, TRUST_PROXY: value }).trustProxy;
  expect(config("0")).toBe(false);
  expect(config("1")).toBe(1);
  expect(config("2")).toBe(2);
  expect(config("true")).toBe(1);
  expect(config("127.0.0.1, 10.0.0.0/8, loopback")).toEqual([
    "127.0.0.1",
    "10.0.0.0/8",
    "loopback",
  ]);
  expect(() => config("not-an-address")).toThrow(/TRUST_PROXY/);
  expect(() => config("10.0.0.0/99")).toThrow(/TRUST_PROXY/);
});

test("with TRUST_PROXY naming the proxy's address, the client's own header cannot pick the address", async () => {
  // The proxy reaches the server from 127.0.0.3; its clients come from 127.0.0.1.
  const limited = await startConfiguredServer({ LOGIN_RATE_LIMIT: "2", TRUST_PROXY: "127.0.0.3" });
  const proxy = await startAppendingProxy(limited.address, { localAddress: "127.0.0.3" });
  try {
    const client = new BrowserClient(proxy.url);
    const attempt = (i: number) =>
      client.request("POST", "/login", {
        body: new URLSearchParams(),
        origin: limited.publicUrl.origin,
        headers: { "X-Forwarded-For": `198.51.100.${i}` },
      });
    for (let i = 0; i < 2; i++) expect((await attempt(i)).status).toBe(302);
    expect((await attempt(5)).status).toBe(429);
  } finally {
    await proxy.close();
    await limited.close();
  }
});

test("the sign-in rate limit also counts the client-side router's POST /login.data", async () => {
  const limited = await startConfiguredServer({ LOGIN_RATE_LIMIT: "3" });
  try {
    const client = new BrowserClient(limited.address);
    for (let i = 0; i < 3; i++) expect((await client.post("/login.data", {})).status).not.toBe(429);
    expect((await client.post("/login.data", {})).status).toBe(429);
    expect((await client.post("/login", {})).status).toBe(429);
  } finally {
    await limited.close();
  }
});

test("in production a server error shows the Spanish 500 page and nothing of the error itself", async () => {
  const production = await startProductionServer();
  try {
    const { user } = await signInWithIdentity(
      production.db,
      {
        issuer: "https://login.ayllu.example",
        subject: randomUUID(),
        email: "falla@example.com",
        emailVerified: true,
        name: "Falla",
        picture: null,
      },
      [],
    );
    const setCookie = await createSession(production.db, user.id, { secure: true });
    const client = new BrowserClient(production.address);
    const [pair] = setCookie.split(";");
    const [name, value] = pair!.split("=");
    client.cookies.set(name!, value!);
    await production.closeDatabase();

    // As through the proxy in front of a production site (its https cookie is the one read).
    const reply = await client.get("/profile", { "X-Forwarded-For": "203.0.113.7" });
    expect(reply.status).toBe(500);
    expect(reply.text).toContain("Algo salió mal");
    expect(reply.text).toContain('href="/inicio"');
    for (const internal of [
      /PGlite/i,
      /pool/i,
      /closed/i,
      /\bat \S+ \(/,
      /node_modules/,
      /\.server\./,
    ]) {
      expect(reply.text).not.toMatch(internal);
    }
  } finally {
    await production.close();
  }
});

test("outside production too (NODE_ENV=test), a failing page's data carries no stack trace or server path", async () => {
  const broken = await startConfiguredServer({});
  try {
    const { user } = await signInWithIdentity(
      broken.db,
      {
        issuer: "https://login.ayllu.example",
        subject: randomUUID(),
        email: "falla-datos@example.com",
        emailVerified: true,
        name: "Falla",
        picture: null,
      },
      [],
    );
    const setCookie = await createSession(broken.db, user.id, { secure: false });
    const client = new BrowserClient(broken.address);
    const [pair] = setCookie.split(";");
    const [name, value] = pair!.split("=");
    client.cookies.set(name!, value!);
    await broken.closeDatabase();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const target of ["/profile.data", "/profile"]) {
        const reply = await client.get(target);
        expect(reply.status, target).toBe(500);
        for (const internal of [
          /PGlite/i,
          /\bat \S+ \(/,
          /node_modules/,
          /\.server\./,
          /build\//,
        ]) {
          expect(reply.text, target).not.toMatch(internal);
        }
      }
    } finally {
      errors.mockRestore();
    }
  } finally {
    await broken.close();
  }
});

/** Sends `head` then drips the body a byte at a time; resolves with what the server answered and when. */
function slowRequest(address: URL, head: string, dripMs: number) {
  return new Promise<{ answer: string; ms: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(address.port), address.hostname);
    let answer = "";
    // The drip starts once the head is out: a byte before it (on a busy machine the connection
    // can take longer than one drip) would make the request line garbage, answered 405.
    let drip: NodeJS.Timeout | undefined;
    socket.on("connect", () => {
      socket.write(head);
      drip = setInterval(() => socket.write("a"), dripMs);
    });
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ answer, ms: Date.now() - started });
    });
    setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error("el servidor no cortó la conexión"));
    }, 20_000);
  });
}

test("a body sent too slowly, or headers that never end, are cut off with 408 after the request timeout", async () => {
  const strict = await startConfiguredServer(
    {},
    { httpTimeouts: { headersMs: 1000, requestMs: 2000 } },
  );
  try {
    const host = strict.address.host;
    const body = await slowRequest(
      strict.address,
      `POST /login HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n`,
      200,
    );
    expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(body.ms).toBeLessThan(10_000);
    const headers = await slowRequest(
      strict.address,
      `GET / HTTP/1.1\r\nHost: ${host}\r\nX-Lento: `,
      200,
    );
    expect(headers.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.ms).toBeLessThan(10_000);
  } finally {
    await strict.close();
  }
});

/** Sends `first`, waits `idleMs` after its answer on the same connection, then sends `second`. */
function requestAfterIdle(address: URL, request: string, idleMs: number) {
  return new Promise<{ answers: string; closedWhileIdle: boolean }>((resolve) => {
    const socket = net.connect(Number(address.port), address.hostname);
    let answers = "";
    let idle = false;
    let closedWhileIdle = false;
    socket.on("connect", () => socket.write(request));
    socket.on("data", (chunk) => {
      answers += chunk.toString();
      if (!idle && answers.includes("\r\n\r\n")) {
        idle = true;
        setTimeout(() => {
          if (!socket.destroyed) socket.write(request);
          setTimeout(() => socket.end(), 2000);
        }, idleMs);
      }
    });
    socket.on("error", () => {});
    socket.on("end", () => {
      if (idle && answers.split("HTTP/1.1 ").length === 2) closedWhileIdle = true;
    });
    socket.on("close", () => resolve({ answers, closedWhileIdle }));
  });
}

test("a kept-alive connection idle for longer than clients wait stays open for the next request", async () => {
  // Clients (fetch, browsers, proxies) reuse an idle connection for several seconds; had the
  // server closed it first (Node's default is 5 s), the next request would meet a reset.
  const host = server.url.host;
  const { answers, closedWhileIdle } = await requestAfterIdle(
    server.url,
    `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    6000,
  );
  expect(closedWhileIdle).toBe(false);
  expect(answers.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
});

test("a form post larger than 1 MiB is refused before any route reads it", async () => {
  const client = await signInMember(server.url, `grande-${randomUUID()}@example.com`);
  const reply = await client.post("/profile", { nombreCompleto: "x".repeat(1024 * 1024 + 10) });
  expect(reply.status).toBe(413);
  expect(reply.text).toBe("La solicitud es demasiado grande.");
});

test("a member's form post to an admin page is answered with a 403 page that says why, not a server error", async () => {
  const client = await signInMember(server.url, `no-admin-${randomUUID()}@example.com`);
  const reply = await client.post("/admin", { intent: "publish" });
  expect(reply.status).toBe(403);
  expect(reply.text).toContain("Acceso denegado. No eres un administrador.");
  expect(reply.text).not.toContain("Algo salió mal");
});

test("check-in pages may use the camera, a worker and WebAssembly; no other page may", async () => {
  const admin = await signInMember(server.url, `registro-${randomUUID()}@example.com`);
  const event = randomUUID();
  // The headers do not depend on who asks or on the answer: a page that refuses or does not
  // find the event carries them too.
  for (const client of [admin, newClient()]) {
    const reply = await client.get(`/admin/eventos/${event}/registro`);
    const csp = parseCsp(reply.headers.get("content-security-policy"));
    expect(csp.get("script-src")).toEqual([
      `'nonce-${nonceOf(csp)}'`,
      "'strict-dynamic'",
      "'wasm-unsafe-eval'",
    ]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(reply.headers.get("permissions-policy")).toContain("camera=(self)");
    expect(reply.headers.get("permissions-policy")).toContain("microphone=()");
  }
  for (const path of [
    "/login",
    "/",
    `/admin/eventos/${event}/participantes`,
    `/admin/eventos/${event}/registro/datos`,
    `/admin/eventos/${event}/registro.webmanifest`,
    `/admin/eventos/${event}/registro/otra`,
    `/x/admin/eventos/${event}/registro`,
    "/registro-sw.js",
    "/assets/root-Ab1_x.js",
  ]) {
    const reply = await admin.get(path);
    const csp = parseCsp(reply.headers.get("content-security-policy"));
    expect(csp.get("script-src"), path).not.toContain("'wasm-unsafe-eval'");
    expect(csp.get("worker-src"), path).toEqual(["'none'"]);
    expect(reply.headers.get("permissions-policy"), path).toContain("camera=()");
  }
});

test("the QR decoder's worker script may compile WebAssembly, and may do nothing more than a page", async () => {
  // A worker runs under its own script's policy, not its page's.
  const reply = await newClient().get("/assets/qr-decoder.worker-Ab1_x-9.js");
  const csp = parseCsp(reply.headers.get("content-security-policy"));
  expect(csp.get("script-src")).toEqual([
    `'nonce-${nonceOf(csp)}'`,
    "'strict-dynamic'",
    "'wasm-unsafe-eval'",
  ]);
  expect(csp.get("worker-src")).toEqual(["'none'"]);
  expect(csp.get("connect-src")).toEqual(["'self'"]);
  expect(reply.headers.get("permissions-policy")).toContain("camera=()");
});
