// The live content stream's limits: a session holds at most a few streams (the oldest
// closes), and the heartbeat asks the database once per session, not once per stream.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSession, sessionKeyOf } from "~/members/session.server";
import { loadConfig } from "~/kernel/config.server";
import type { Database } from "~/db/client.server";
import { sessions } from "~/db/schema.server";
import {
  PUBLICATIONS_STREAM_PATH,
  createPublicationStream,
  type PublicationStream,
} from "#server/http/publication-stream.server";
import { signInWithIdentity } from "~/members/user.server";
import { createTestDatabase } from "../helpers/database";
import { openEventStream, type OpenStream } from "../helpers/event-stream";
import { TEST_ENV } from "../helpers/server";

const HEARTBEAT_MS = 100;
let database: Database;
let hub: PublicationStream;
let server: http.Server;
let url: URL;
const open: OpenStream[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig(TEST_ENV);
  hub = createPublicationStream(database, config, { heartbeatMs: HEARTBEAT_MS, maxPerSession: 2 });
  const app = express();
  app.get(PUBLICATIONS_STREAM_PATH, (req, res, next) => {
    hub.handle(req, res).catch(next);
  });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(
    PUBLICATIONS_STREAM_PATH,
    `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  );
});

afterAll(async () => {
  for (const stream of open) stream.close();
  await hub?.close();
  await new Promise<void>((resolve) => {
    server?.close(() => resolve());
    server?.closeAllConnections();
  });
  await database?.close();
});

async function adminSession(): Promise<string> {
  const email = `vivo-${randomUUID()}@example.com`;
  const { user } = await signInWithIdentity(
    database.db,
    {
      issuer: "https://issuer.example",
      subject: randomUUID(),
      email,
      emailVerified: true,
      name: "Admin en vivo",
      picture: null,
    },
    [email],
  );
  return (await createSession(database.db, user.id, { secure: false })).split(";")[0]!;
}

async function stream(cookie: string): Promise<OpenStream> {
  const opened = await openEventStream(url, cookie);
  expect(opened.status).toBe(200);
  open.push(opened);
  return opened;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a session holds at most the configured streams: opening one more closes the oldest", async () => {
  const cookie = await adminSession();
  const first = await stream(cookie);
  const second = await stream(cookie);
  let firstEnded = false;
  void first.ended.then(() => (firstEnded = true));
  await sleep(50);
  expect(firstEnded).toBe(false);
  const third = await stream(cookie);
  await first.ended;
  let othersEnded = false;
  void Promise.race([second.ended, third.ended]).then(() => (othersEnded = true));
  await sleep(3 * HEARTBEAT_MS);
  expect(othersEnded).toBe(false);
  for (const s of [second, third]) s.close();
});

test("each heartbeat checks each session once however many streams it holds; a revoked session's streams all end", async () => {
  const alice = await adminSession();
  const bruno = await adminSession();
  const aliceStreams = [await stream(alice), await stream(alice)];
  const brunoStreams = [await stream(bruno), await stream(bruno)];
  await sleep(2 * HEARTBEAT_MS);
  const before = hub.stats();
  await sleep(8 * HEARTBEAT_MS);
  const after = hub.stats();
  const beats = after.heartbeats - before.heartbeats;
  expect(beats).toBeGreaterThanOrEqual(4);
  expect(after.sessions).toBe(2);
  // Four streams, two sessions: two checks a beat (the old design made four).
  expect(after.sessionChecks - before.sessionChecks).toBeLessThanOrEqual(2 * beats);

  // Signing Alice out everywhere ends both her streams at the next beat; Bruno's stay.
  await database.db.delete(sessions).where(eq(sessions.idHash, (await sessionRowOf(alice))!));
  await Promise.all(aliceStreams.map((s) => s.ended));
  let brunoEnded = false;
  void Promise.race(brunoStreams.map((s) => s.ended)).then(() => (brunoEnded = true));
  await sleep(3 * HEARTBEAT_MS);
  expect(brunoEnded).toBe(false);
  expect(hub.stats().sessions).toBe(1);
});

async function sessionRowOf(cookie: string): Promise<string | null> {
  return sessionKeyOf(new Request("http://x/", { headers: { cookie } }), { secure: false });
}
