// The limits on e-mailed sign-in links hold across the processes of one site: on PostgreSQL a
// second server runs as a process of its own (`node server.js`) on the database this test's
// server uses, and both count in sign_in_attempts (docs/decisions/034-sign-in-by-link.md). On the
// embedded database, which one process alone can open, the two servers share its one handle.
import { spawn } from "node:child_process";
import os from "node:os";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { rowsOf } from "~/db/rows.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { EMAIL_LINK_MESSAGES } from "~/members/messages";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { openSharedDatabase, type SharedDatabase } from "../helpers/shared-database";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

const LIMITS = {
  EMAIL_LINKS_PER_ADDRESS: "3",
  EMAIL_LINKS_PER_CLIENT: "5",
  TRUST_PROXY: "1",
  LOGIN_RATE_LIMIT: "10000",
};

let shared: SharedDatabase;
let smtp: TestSmtp;
let first: TestServer;
let second: { url: URL; close(): Promise<void> };

/** `node server.js` on the shared PostgreSQL database; resolves once it listens. */
async function startProcess(databaseUrl: string): Promise<{ url: URL; close(): Promise<void> }> {
  const started = spawn(process.execPath, ["server.js"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      PORT: "0",
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      SESSION_SECRET: TEST_SESSION_SECRET,
      DATABASE_URL: databaseUrl,
      WEB_CONCURRENCY: "1",
      SMTP_URL: smtp.url,
      ...LIMITS,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No arrancó:\n${output}`)), 45_000);
    started.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Ayllu escucha en (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    });
    started.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Terminó (${code}) antes de escuchar:\n${output}`));
    });
  });
  return {
    url,
    close: async () => {
      if (started.exitCode !== null || started.signalCode !== null) return;
      const gone = new Promise((resolve) => started.once("exit", resolve));
      started.kill("SIGTERM");
      await gone;
    },
  };
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  shared = await openSharedDatabase();
  const env = { SMTP_URL: smtp.url, ...LIMITS };
  first = await startTestServer(env, { database: shared.first });
  second = shared.url
    ? await startProcess(shared.url)
    : await startTestServer(env, { database: shared.second });
}, 60_000);
afterAll(async () => {
  await second?.close();
  await first?.close();
  await shared?.close();
  await smtp?.close();
});

function ask(base: URL, email: string, client: string, jar = new BrowserClient(base)) {
  return jar.request("POST", "/login/correo", {
    body: new URLSearchParams({ email }),
    origin: base.origin,
    headers: { "X-Forwarded-For": client },
  });
}

test("an address gets EMAIL_LINKS_PER_ADDRESS links across both processes; past it, a 429 on both", async () => {
  const servers = [first.url, second.url];
  for (let i = 0; i < 3; i++) {
    const reply = await ask(servers[i % 2]!, "dos-procesos@example.com", `198.51.100.${10 + i}`);
    expect(reply.status).toBe(200);
  }
  for (const base of servers) {
    const refused = await ask(base, "Dos-Procesos@example.com", "198.51.100.20");
    expect(refused.status).toBe(429);
    expect(refused.text.replaceAll("<!-- -->", "")).toContain(EMAIL_LINK_MESSAGES.tooMany);
  }
  const [row] = rowsOf<{ hits: number }>(
    await shared.first.db.execute(
      sql`select hits from sign_in_attempts where client = 'link-address:dos-procesos@example.com'`,
    ),
  );
  expect(row?.hits).toBe(5);
});

test("a client gets EMAIL_LINKS_PER_CLIENT links across both processes, whatever the addresses", async () => {
  const client = "203.0.113.7";
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++)
    statuses.push((await ask(i % 2 ? second.url : first.url, `c${i}@example.com`, client)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
});

test("requests sent to both processes at once are all counted: exactly the limit gets through", async () => {
  const replies = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      ask(i % 2 ? second.url : first.url, "a-la-vez@example.com", `192.0.2.${i + 1}`),
    ),
  );
  const statuses = replies.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(3);
  expect(statuses.filter((s) => s === 429)).toHaveLength(7);
});

test("a link asked for through one process signs in through the other", async () => {
  const jar = new BrowserClient(second.url);
  const count = smtp.received.length;
  expect((await ask(second.url, "cruza@example.com", "192.0.2.100", jar)).status).toBe(200);
  // The mail is sent before the page answers.
  await smtp.waitFor(count + 1);
  const mail = smtp.received.find((m) => m.to && JSON.stringify(m.to).includes("cruza@"));
  const link = /\/login\/enlace\/[A-Za-z0-9_-]{43}/.exec(mail?.text ?? "")?.[0];
  expect(link).toBeTruthy();
  const other = new BrowserClient(first.url);
  for (const [name, value] of jar.cookies) other.cookies.set(name, value);
  const followed = await other.get(link!);
  expect(followed.status).toBe(302);
  expect(pathOf(followed.location)).toBe("/aditionaldata");
});
