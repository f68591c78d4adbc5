// A decision's form as its page sends it (decision 064): with `visto`, what the screen showed —
// the payment's or the team's state, the member without the role or the grant to take back,
// whether they were an admin, the final being reopened — read from the database as the page
// would have read it. A test that names its own `visto` keeps it.
import { and, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  competitionCategories,
  competitionTeams,
  payments,
  roleGrants,
  users,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { ROLE_NOT_SEEN } from "~/members/roles";

type Fields = Record<string, string | string[]>;

const one = (fields: Fields, name: string) =>
  typeof fields[name] === "string" ? (fields[name] as string) : "";

async function seen(db: Db, fields: Fields): Promise<string | null> {
  const intent = one(fields, "intent");
  if (intent === "confirm" || intent === "waive" || intent === "refuse") {
    const id = one(fields, "paymentId");
    if (!isUuid(id)) return null;
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row?.status ?? null;
  }
  if (intent === "review") {
    const id = one(fields, "teamId");
    if (!isUuid(id)) return null;
    const [row] = await db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
    return row?.status ?? null;
  }
  if (intent === "grantRole") return ROLE_NOT_SEEN;
  if (intent === "revokeRole") {
    const userId = one(fields, "userId");
    const eventId = one(fields, "eventId");
    const categoryId = one(fields, "categoryId");
    if (!isUuid(userId)) return null;
    const [row] = await db
      .select({ id: roleGrants.id })
      .from(roleGrants)
      .where(
        and(
          eq(roleGrants.userId, userId),
          eq(roleGrants.kind, one(fields, "kind")),
          // An event's pages name their event in the address, not in the form.
          isUuid(eventId) ? eq(roleGrants.eventId, eventId) : undefined,
          isUuid(categoryId) ? eq(roleGrants.categoryId, categoryId) : undefined,
        ),
      );
    return row?.id ?? null;
  }
  if (intent === "grantAdmin" || intent === "revokeAdmin") {
    const id = one(fields, "userId");
    if (!isUuid(id)) return null;
    const [row] = await db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id));
    return row ? (row.isAdmin ? "1" : "0") : null;
  }
  return null;
}

/** `fields` with the `visto` its page would have sent. */
export async function shown(db: Db, fields: Fields): Promise<Fields> {
  if ("visto" in fields) return fields;
  const visto = await seen(db, fields);
  return visto === null ? fields : { ...fields, visto };
}

/** The `visto` of 'Reabrir' on a category's results page: the final it showed, if any. */
export async function shownFinal(db: Db, categoryId: string): Promise<string> {
  const [row] = await db
    .select({ finalAt: competitionCategories.finalAt })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  return row?.finalAt?.toISOString() ?? "";
}
