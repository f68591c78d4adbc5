// The embedded database has no autovacuum: the server vacuums and analyses it itself, so that the
// planner knows the tables' sizes (and counts can use index-only scans) as the site grows.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect } from "vitest";
import { rowsOf } from "~/db/rows.server";
import { failOnConsoleError } from "../helpers/console";
import { testOnlyOn } from "../helpers/database";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

failOnConsoleError();

testOnlyOn("embedded", "PostgreSQL's autovacuum does this on a server")(
  "a server on the embedded database vacuums and analyses it when it starts",
  async () => {
    const vacuumed = async () => {
      const [row] = rowsOf<{ n: number }>(
        await server.db.execute(
          sql`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = 'public' and c.relname in ('events', 'sessions', 'users')
                and c.reltuples >= 0 and c.relallvisible >= 0 and c.relpages >= 0
                and exists (select 1 from pg_stat_user_tables s where s.relid = c.oid
                            and (s.vacuum_count > 0 or s.last_vacuum is not null))`,
        ),
      );
      return row?.n ?? 0;
    };
    const deadline = Date.now() + 15_000;
    while ((await vacuumed()) < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await vacuumed()).toBe(3);
  },
);
