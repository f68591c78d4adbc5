// Issue 40: a member never receives another member's data. Fifty members, each with a marker of
// their own in their name, load their pages at once — beside visitors loading the same pages
// through the page cache — on one server process, and (on PostgreSQL) on a cluster of two workers;
// any answer holding another member's marker, or a visitor's holding any, fails.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import { afterAll, afterEach, expect, test } from "vitest";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import type { BrowserClient } from "../helpers/browser-client";
import {
  createPostgresDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
} from "../helpers/database";
import { signInMember } from "../helpers/sign-in";
import { startTestServer, type TestServer } from "../helpers/server";

const MEMBERS = 50;
const PAGES = ["/", "/inicio", "/eventos", "/notas", "/profile", "/mis-entradas"];

let server: TestServer | null = null;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(() => server?.close());

/** Signs in the members (ten at a time), each named with a marker nobody else's contains. */
async function signInMarked(base: URL) {
  const members: Array<{ marker: string; client: BrowserClient }> = [];
  for (let start = 0; start < MEMBERS; start += 10) {
    members.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, MEMBERS - start) }, async (_, k) => {
          const marker = `marca${randomBytes(6).toString("hex")}`;
          const client = await signInMember(
            base,
            `m${start + k}-${marker}@example.com`,
            `Ana ${marker}`,
          );
          return { marker, client };
        }),
      )),
    );
  }
  return members;
}

/** Every member's and visitors' pages, all at once, twice; what each answer shows. */
async function loadAtOnce(base: URL, members: Awaited<ReturnType<typeof signInMarked>>) {
  const event = (await (await fetch(new URL("/eventos", base))).text()).match(
    /href="(\/detalles\/[0-9a-f-]{36})"/,
  )?.[1];
  const pages = event ? [...PAGES, event] : PAGES;
  const markers = members.map((m) => m.marker);
  const problems: string[] = [];
  let ownSeen = 0;
  for (let round = 0; round < 2; round++) {
    await Promise.all([
      ...members.flatMap(({ marker, client }) =>
        pages.map(async (page) => {
          const reply = await client.get(page);
          if (reply.status !== 200) problems.push(`${page} de ${marker}: ${reply.status}`);
          if (reply.text.includes(marker)) ownSeen++;
          for (const other of markers)
            if (other !== marker && reply.text.includes(other))
              problems.push(`${page} de ${marker} muestra a ${other}`);
        }),
      ),
      ...pages.flatMap((page) =>
        Array.from({ length: 5 }, async () => {
          const text = await (await fetch(new URL(page, base))).text();
          for (const other of markers)
            if (text.includes(other)) problems.push(`${page} de un visitante muestra a ${other}`);
        }),
      ),
    ]);
  }
  return { problems, ownSeen, requests: 2 * members.length * pages.length };
}

test(
  "fifty members at once on one server process: each page shows its own member, never another, and visitors none",
  { timeout: 180_000 },
  async () => {
    server = await startTestServer({ SEED_DEMO: "1" });
    const members = await signInMarked(server.url);
    const { problems, ownSeen, requests } = await loadAtOnce(server.url, members);
    expect(problems).toEqual([]);
    // Every page a member loads carries their name (the header's menu and its data).
    expect(ownSeen).toBe(requests);
  },
);

const postgresUrl = postgresAdminUrl;

testOnlyOn("postgres", "a cluster of workers needs a database they can share")(
  "fifty members at once on a cluster of two workers on PostgreSQL: never another member's page",
  { timeout: 240_000 },
  async () => {
    const { name, url } = await createPostgresDatabase(postgresUrl!, "ayllu_mezcla");
    try {
      const child = spawn(process.execPath, ["server.js"], {
        cwd: PROJECT_ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: os.tmpdir(),
          DATABASE_URL: url,
          WEB_CONCURRENCY: "2",
          LOGIN_RATE_LIMIT: "10000",
          PORT: "0",
          HOST: "127.0.0.1",
          SEED_DEMO: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let output = "";
      const base = await new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`No arrancó:\n${output}`)), 60_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const listening = [...output.matchAll(/Ayllu escucha en (http:\/\/\S+)/g)];
          if (listening.length >= 2) {
            clearTimeout(timer);
            resolve(new URL(listening[0]![1]!));
          }
        };
        child.stdout!.on("data", read);
        child.stderr!.on("data", read);
        child.once("exit", (code) => reject(new Error(`Terminó (${code}):\n${output}`)));
      });
      const members = await signInMarked(base);
      const { problems, ownSeen, requests } = await loadAtOnce(base, members);
      expect(problems).toEqual([]);
      expect(ownSeen).toBe(requests);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      for (const child of children.splice(0)) child.kill("SIGKILL");
      await dropDatabase(postgresUrl!, name);
    }
  },
);
