// Two app nodes proved together (issue 29, point 4): two `node server.js` processes with their own
// data folders and ports, no shared disk, one PostgreSQL, one S3 server on loopback (s3rver, for
// R2 or Garage), one SMTP server, and a proxy in front that sends each request to either. Needs
// PostgreSQL only: the embedded database is one process.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect } from "vitest";
import { openPostgres, type Database } from "~/db/client.server";
import { mailOutbox, participations, users } from "~/db/schema.server";
import { loadConfig } from "~/kernel/config.server";
import { PROJECT_ROOT } from "~/kernel/paths.server";
import { rowsOf } from "~/db/rows.server";
import { BrowserClient } from "../helpers/browser-client";
import {
  createPostgresDatabase,
  dropDatabase,
  postgresAdminUrl,
  testOnlyOn,
  usingPostgres,
} from "../helpers/database";
import { eventForm, createTestEvent } from "../helpers/events";
import { PIN_HEADER, startBalancingProxy, type BalancingProxy } from "../helpers/balancing-proxy";
import { startS3, TEST_BUCKET, type TestS3 } from "../helpers/s3";
import { registerServer, TEST_SESSION_SECRET } from "../helpers/server";
import { signInMember } from "../helpers/sign-in";
import { startTestSmtp, type TestSmtp } from "../helpers/smtp";

const ADMIN = "admin-nodos@example.com";

interface Node {
  name: string;
  url: URL;
  child: ChildProcess;
  output(): string;
  exited: Promise<unknown>;
}

let s3: TestS3;
let smtp: TestSmtp;
let proxy: BalancingProxy;
let database: Database;
let dbName = "";
let nodeA: Node;
let nodeB: Node;
let unregister = () => {};
const folders: string[] = [];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `ayllu-nodo-${name}-`));
  folders.push(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: os.tmpdir(),
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`El nodo ${name} no arrancó:\n${output}`)),
      60_000,
    );
    const check = () => {
      if (output.includes("Ayllu escucha en")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`El nodo ${name} terminó antes de escuchar:\n${output}`));
    });
  });
  return { name, url: new URL(`http://127.0.0.1:${port}`), child, output: () => output, exited };
}

/** Two nodes share one database and one bucket: the embedded database is one process. */
const onPostgres = testOnlyOn("postgres", "two nodes need a database they can share");

beforeAll(async () => {
  if (!usingPostgres) return;
  [s3, smtp, proxy] = await Promise.all([
    startS3([TEST_BUCKET]),
    startTestSmtp(),
    startBalancingProxy(),
  ]);
  const created = await createPostgresDatabase(postgresAdminUrl!, "ayllu_dos_nodos");
  dbName = created.name;
  const env: Record<string, string> = {
    ...s3.env(),
    DATABASE_URL: created.url,
    HOST: "127.0.0.1",
    PUBLIC_URL: proxy.url.origin,
    SESSION_SECRET: TEST_SESSION_SECRET,
    TRUST_PROXY: "1",
    SEED_DEMO: "0",
    WEB_CONCURRENCY: "1",
    LOGIN_RATE_LIMIT: "4",
    ADMIN_EMAILS: ADMIN,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Ayllu <eventos@example.org>",
    SITE_TIMEZONE: "America/La_Paz",
  };
  // One after the other: the first migrates the database.
  nodeA = await startNode("a", env);
  nodeB = await startNode("b", env);
  proxy.targets = [nodeA.url, nodeB.url];
  // The test's own connection to the site's database, so that fixtures open sessions in it.
  database = await openPostgres(created.url, { max: 4 });
  unregister = registerServer(proxy.url, {
    db: database.db,
    config: loadConfig({ ...env, PORT: "0" }),
  });
});

afterAll(async () => {
  unregister();
  for (const node of [nodeA, nodeB]) {
    if (!node || node.child.exitCode !== null || node.child.signalCode !== null) continue;
    node.child.kill("SIGTERM");
    await node.exited;
  }
  await database?.close();
  await proxy?.close();
  await smtp?.close();
  await s3?.close();
  if (dbName) await dropDatabase(postgresAdminUrl!, dbName);
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** Sends through the proxy to `node` alone (A or B), or to either in turn. */
const post = (client: BrowserClient, target: string, body: BodyInit, node?: Node) =>
  client.request("POST", target, {
    body,
    headers: node ? { [PIN_HEADER]: node === nodeA ? "0" : "1" } : {},
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

onPostgres("a photo uploaded through node A is served by node B, from the one bucket", async () => {
  const admin = await signInMember(proxy.url, ADMIN, "Admin Nodos");
  const form = new FormData();
  const data = await sharp({
    create: { width: 500, height: 300, channels: 3, background: "#3366aa" },
  })
    .png()
    .toBuffer();
  form.append("imagen", new Blob([new Uint8Array(data)], { type: "image/png" }), "foto.png");
  const reply = await post(admin, "/subidas", form, nodeA);
  expect(reply.status).toBe(200);
  const [image] = (JSON.parse(reply.text) as { images: { path: string }[] }).images;
  const fromB = await fetch(new URL(image!.path, nodeB.url));
  expect(fromB.status).toBe(200);
  expect(fromB.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  const bytes = Buffer.from(await fromB.arrayBuffer());
  const inBucket = await fetch(`${s3.endpoint}/${TEST_BUCKET}${image!.path}`);
  expect(bytes.equals(Buffer.from(await inBucket.arrayBuffer()))).toBe(true);
  // Neither node wrote it to its own folder.
  for (const folder of folders) expect(fs.existsSync(path.join(folder, "uploads"))).toBe(false);
});

onPostgres(
  "an event published on node A is on node B's next visitor page: its page cache is cleared at once",
  async () => {
    const visitorB = new BrowserClient(nodeB.url);
    const before = await visitorB.get("/eventos");
    expect(before.status).toBe(200);
    expect(before.text).not.toContain("Publicado en A");
    const admin = await signInMember(proxy.url, ADMIN, "Admin Nodos");
    const title = `Publicado en A ${Date.now()}`;
    const published = await post(
      admin,
      "/admin",
      eventForm("publish", { nombreEvento: title }),
      nodeA,
    );
    expect(published.status).toBe(302);
    const started = performance.now();
    let page = await visitorB.get("/eventos");
    while (!page.text.includes(title) && performance.now() - started < 5_000) {
      await sleep(20);
      page = await visitorB.get("/eventos");
    }
    expect(page.text).toContain(title);
    console.log(
      `Nodo B mostró el evento ${Math.round(performance.now() - started)} ms después de publicarlo en A`,
    );
  },
);

onPostgres("a mail is sent once, though both nodes' workers are woken for it", async () => {
  const [admin] = await database.db.select().from(users).where(eq(users.email, ADMIN));
  const event = await createTestEvent(database.db, admin!, { nombreEvento: "Evento con correo" });
  const email = `correo-unico-${Date.now()}@example.com`;
  const member = await signInMember(proxy.url, email, "Correo Único");
  const joined = await post(
    member,
    `/detalles/${event.id}`,
    new URLSearchParams({ intent: "join" }),
  );
  expect(joined.status).toBe(302);
  // The welcome mail (the member's first sign-in) and the confirmation of the join.
  const outbox = () =>
    database.db
      .select({ kind: mailOutbox.kind, status: mailOutbox.status, attempts: mailOutbox.attempts })
      .from(mailOutbox)
      .innerJoin(users, eq(users.id, mailOutbox.userId))
      .where(eq(users.email, email));
  for (let waited = 0; waited < 20_000; waited += 100) {
    const rows = await outbox();
    if (rows.some((r) => r.kind !== "welcome") && rows.every((r) => r.status === "sent")) break;
    await sleep(100);
  }
  // Time for a second copy, were a second worker to send one.
  await sleep(2_000);
  const rows = await outbox();
  expect(rows.length).toBeGreaterThanOrEqual(2);
  for (const row of rows) expect(row).toMatchObject({ status: "sent", attempts: 1 });
  const toMember = smtp.received.filter((m) => JSON.stringify(m.to ?? "").includes(email));
  expect(toMember).toHaveLength(rows.length);
  expect(new Set(toMember.map((m) => m.messageId)).size).toBe(rows.length);
});

onPostgres("the sign-in limit holds across both nodes behind the proxy", async () => {
  // A connection each: a kept-alive socket the proxy closed meanwhile is not this test's subject.
  const client = new BrowserClient(proxy.url, { newConnections: true });
  const answeredBefore = new Map(proxy.answered);
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) statuses.push((await client.post("/login", {})).status);
  expect(statuses.slice(0, 4)).toEqual([302, 302, 302, 302]);
  expect(statuses.slice(4)).toEqual([429, 429, 429, 429]);
  // Both nodes answered some of them.
  for (const node of [nodeA, nodeB])
    expect(
      (proxy.answered.get(node.url.origin) ?? 0) - (answeredBefore.get(node.url.origin) ?? 0),
    ).toBeGreaterThanOrEqual(2);
});

onPostgres(
  "killing node A mid-load loses no acknowledged write, and node B keeps serving",
  async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.email, ADMIN));
    const event = await createTestEvent(database.db, admin!, { nombreEvento: "Evento bajo carga" });
    const stamp = Date.now();
    const emails = Array.from({ length: 40 }, (_, i) => `carga-${i}-${stamp}@example.com`);
    const members = await Promise.all(
      emails.map((email, i) => signInMember(proxy.url, email, `Carga ${i}`)),
    );
    const acknowledged: number[] = [];
    const failed: number[] = [];
    let next = 0;
    let killed = false;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < members.length) {
          const i = next++;
          const reply = await post(
            members[i]!,
            `/detalles/${event.id}`,
            new URLSearchParams({ intent: "join" }),
          ).catch(() => null);
          if (reply?.status === 302) acknowledged.push(i);
          else failed.push(i);
          if (!killed && acknowledged.length >= 10) {
            killed = true;
            nodeA.child.kill("SIGKILL");
          }
        }
      }),
    );
    await nodeA.exited;
    expect(killed).toBe(true);
    // Every join a node acknowledged is in the database.
    const joined = rowsOf<{ email: string }>(
      await database.db
        .execute(sql`select u.email from participations p join users u on u.id = p.user_id
      where p.event_id = ${event.id}`),
    ).map((r) => r.email);
    const ackedEmails = acknowledged.map((i) => emails[i]!);
    for (const email of ackedEmails) expect(joined).toContain(email);
    // Most went through: those after the kill went to B.
    expect(acknowledged.length).toBeGreaterThanOrEqual(members.length - 4);
    // B keeps serving every request that comes through the proxy.
    for (let i = 0; i < 6; i++)
      expect((await new BrowserClient(proxy.url).get("/eventos")).status).toBe(200);
    const [count] = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(participations)
      .where(and(eq(participations.eventId, event.id)));
    expect(count!.n).toBe(joined.length);
  },
);
