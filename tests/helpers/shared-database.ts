// One site's database opened twice, as two app processes or machines open it: on PostgreSQL two
// pools of their own on one new database (what each node has); the embedded database can be open
// in one process only, so there both "nodes" share its one handle.
import { openPostgres, type Database } from "~/db/client.server";
import {
  createPostgresDatabase,
  createTestDatabase,
  dropDatabase,
  usingPostgres,
} from "./database";

export interface SharedDatabase {
  first: Database;
  second: Database;
  /** The database's address, for a node started as a process of its own (PostgreSQL only). */
  url: string | null;
  close(): Promise<void>;
}

export async function openSharedDatabase(): Promise<SharedDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!usingPostgres || !adminUrl) {
    const database = await createTestDatabase();
    return { first: database, second: database, url: null, close: () => database.close() };
  }
  const { name, url } = await createPostgresDatabase(adminUrl, "ayllu_nodos");
  const first = await openPostgres(url, { max: 10 });
  const second = await openPostgres(url, { max: 10 });
  return {
    first,
    second,
    url,
    async close() {
      await first.close();
      await second.close();
      await dropDatabase(adminUrl, name);
    },
  };
}
