// LISTEN/NOTIFY as the server uses it (app/db/client.server.ts): every listener of a channel
// hears a notification in the same turn, in the order it began listening, so nothing runs
// between two of them (the page cache and the landing sections once heard one NOTIFY on two
// connections, and a page rendered in between was kept with the old content); on PostgreSQL a
// process holds one connection for all its listeners.
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  createTestDatabase,
  postgresAdminUrl,
  type TestDatabase,
  testOnlyOn,
} from "../helpers/database";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

async function notify(channel: string, payload: string) {
  await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** Resolves once `check` holds, polling; fails after a few seconds. */
async function eventually(check: () => boolean, what: string) {
  for (const deadline = Date.now() + 5000; !check();) {
    if (Date.now() > deadline) throw new Error(`No llegó: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("every listener of a channel hears a notification in the same turn, in the order it began listening", async () => {
  const heard: string[] = [];
  // Whether a turn of the event loop had passed since the first listener heard the notification.
  const laterTurn: boolean[] = [];
  let turnEnded = false;
  const stopFirst = await database.listen("ayllu_prueba", (payload) => {
    heard.push(`primero ${payload}`);
    turnEnded = false;
    setImmediate(() => (turnEnded = true));
  });
  const stopSecond = await database.listen("ayllu_prueba", (payload) => {
    heard.push(`segundo ${payload}`);
    laterTurn.push(turnEnded);
  });
  const other: string[] = [];
  const stopOther = await database.listen("ayllu_otro", (payload) => other.push(payload));

  await notify("ayllu_prueba", "uno");
  await eventually(() => heard.length === 2, "los dos avisos");
  expect(heard).toEqual(["primero uno", "segundo uno"]);
  expect(laterTurn).toEqual([false]);
  expect(other).toEqual([]);

  // One listener stops; the others go on hearing their channels.
  await stopFirst();
  await notify("ayllu_prueba", "dos");
  await notify("ayllu_otro", "tres");
  await eventually(() => heard.length === 3 && other.length === 1, "los avisos siguientes");
  expect(heard[2]).toBe("segundo dos");
  expect(other).toEqual(["tres"]);
  await stopSecond();
  await stopOther();
});

testOnlyOn(
  "postgres",
  "LISTEN connections are the PostgreSQL driver's; the embedded database notifies in process",
)(
  "on PostgreSQL the listeners of a process share one connection, closed when the last stops",
  async () => {
    const name = new URL(database.location).pathname.slice(1);
    const admin = new pg.Client({ connectionString: postgresAdminUrl! });
    await admin.connect();
    const listening = async () => {
      const { rows } = await admin.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = $1 and query ilike 'LISTEN %'",
        [name],
      );
      return rows[0]!.n;
    };
    try {
      const stops = [
        await database.listen("ayllu_pages", () => {}),
        await database.listen("ayllu_pages", () => {}),
        await database.listen("ayllu_live", () => {}),
        await database.listen("ayllu_mail", () => {}),
      ];
      expect(await listening()).toBe(1);
      for (const stop of stops) await stop();
      for (let waited = 0; waited < 5000 && (await listening()) > 0; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await listening()).toBe(0);
    } finally {
      await admin.end();
    }
  },
);
