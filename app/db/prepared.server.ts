// Statements that every page (or every signed-in request) asks: built once per database handle
// and, on PostgreSQL, parsed and planned once per connection as named prepared statements, rather
// than once per request. A 1 KB event query spent 0.3 ms of PostgreSQL's CPU in parse and plan
// each time (docs/decisions/027-signed-in-pages-rendered-per-request.md).
import type { Db } from "./client.server";

/**
 * `prepare` builds a statement for one database handle (with `.prepare(name)` and
 * `sql.placeholder`s); the function returned gives each handle its own, built on first use.
 */
export function preparedFor<Statement>(prepare: (db: Db) => Statement): (db: Db) => Statement {
  const byHandle = new WeakMap<Db, Statement>();
  return (db) => {
    let statement = byHandle.get(db);
    if (!statement) {
      statement = prepare(db);
      byHandle.set(db, statement);
    }
    return statement;
  };
}
