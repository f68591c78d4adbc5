// Two things done to one payment at the same moment end in one state, never in an error: a team's
// fee confirmed while its captain withdraws the team (with another team waiting for the place), and
// two refunds of one payment. Many rounds at once on the pool's connections; on PostgreSQL the
// transactions truly overlap.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createTeam, withdrawTeam } from "~/competitions/team-commands.server";
import { TeamError } from "~/competitions/team-places.server";
import {
  competitionCategories,
  competitionTeams,
  events,
  payments,
  users,
  type User,
} from "~/db/schema.server";
import { decidePayment, PaymentStateError, recordRefund } from "~/payments/review.server";
import {
  createTestDatabase,
  databaseName,
  testOnlyOn,
  type TestDatabase,
} from "../helpers/database";
import { createTestEvent } from "../helpers/events";
import { rowsOf } from "~/db/rows.server";

const ROUNDS = 12;
let database: TestDatabase;
let admin: User;

beforeAll(async () => {
  database = await createTestDatabase();
  admin = await member("Jefa", true);
});
afterAll(() => database?.close());

async function member(name: string, isAdmin = false): Promise<User> {
  const [row] = await database.db
    .insert(users)
    .values({
      issuer: "https://test.invalid",
      subject: randomUUID(),
      email: `${randomUUID()}@example.com`,
      nombreCompleto: name,
      fechaNacimiento: "2008-01-01",
      isAdmin,
    })
    .returning();
  return row!;
}

const TEAM = {
  nombre: "Los Cóndores",
  colegio: "San Calixto",
  ciudad: "La Paz",
  robot: "Illimani",
};

/**
 * A category of one place with a fee: team A holds it, its fee sent for review; team B waits for
 * the place.
 */
async function feeSentWithTeamWaiting() {
  const event = await createTestEvent(database.db, admin, {
    nombreEvento: `Clash ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2031-08-08",
  });
  const [category] = await database.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name: "Robot Sumo",
      level: "secundaria",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      capacity: 1,
      feeCents: 5000,
      registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      format: "llaves",
    })
    .returning();
  const now = new Date();
  const captain = await member("Ana Flores");
  const first = await createTeam(database.db, captain, category!.id, TEAM, now);
  const other = await member("Beto Choque");
  const waiting = await createTeam(
    database.db,
    other,
    category!.id,
    { ...TEAM, nombre: "Los Pumas" },
    now,
  );
  expect(waiting.status).toBe("waiting");
  const [fee] = await database.db
    .update(payments)
    .set({ status: "submitted", transactionNumber: "TRX-1", heldUntil: null })
    .where(eq(payments.teamId, first.id))
    .returning();
  return { captain, first, waiting, fee: fee! };
}

test(`a team's fee confirmed while its captain withdraws the team ends in one state, never a deadlock (${databaseName})`, async () => {
  const rounds = await Promise.all(Array.from({ length: ROUNDS }, feeSentWithTeamWaiting));
  const outcomes = await Promise.all(
    rounds.map(async ({ captain, first, fee }) =>
      Promise.all([
        decidePayment(database.db, admin, fee.id, "confirm").then(
          () => "confirmed",
          (error: unknown) => {
            if (!(error instanceof PaymentStateError)) throw error;
            return "refused";
          },
        ),
        withdrawTeam(database.db, captain, first.id, new Date()).then(
          () => "withdrawn",
          (error: unknown) => {
            if (!(error instanceof TeamError)) throw error;
            return "refused";
          },
        ),
      ]),
    ),
  );
  for (const [i, [decision, withdrawal]] of outcomes.entries()) {
    const { first, waiting, fee } = rounds[i]!;
    const [row] = await database.db.select().from(payments).where(eq(payments.id, fee.id));
    const [team] = await database.db
      .select()
      .from(competitionTeams)
      .where(eq(competitionTeams.id, first.id));
    const [next] = await database.db
      .select()
      .from(competitionTeams)
      .where(eq(competitionTeams.id, waiting.id));
    // The withdrawal always goes through, and the waiting team gets the place and its own fee.
    expect(withdrawal).toBe("withdrawn");
    expect(team!.status).toBe("withdrawn");
    expect(next!.status).toBe("pending");
    expect(
      await database.db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.teamId, waiting.id), eq(payments.status, "pending"))),
    ).toHaveLength(1);
    if (decision === "confirmed") {
      // Confirmed first: the fee stays paid, marked for a refund.
      expect(row!.status).toBe("confirmed");
      expect(row!.leftAt).not.toBeNull();
    } else {
      // Withdrawn first: the fee was cancelled, and the confirmation refused with a reason.
      expect(row!.status).toBe("cancelled");
    }
  }
});

/** Waits until `n` of this database's connections wait for a lock. */
async function lockWaiters(n: number) {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const [row] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (row!.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${n} transacciones no llegaron a esperar un bloqueo`);
}

// The interleaving that deadlocked: the withdrawal has cancelled the fee (its row locked) and is
// about to give the place to the waiting team, whose fee it then inserts (which needs the event's
// row, for the foreign key); the confirmation has locked the event's row and waits for the fee's.
// The test holds the waiting team's row to stop the withdrawal exactly there.
testOnlyOn(
  "postgres",
  "row locks that wait on each other; the embedded database runs one transaction at a time",
)(
  "a fee confirmed at the very moment the withdrawal passes the place on waits for it, then is refused: no deadlock",
  async () => {
    const { captain, first, waiting, fee } = await feeSentWithTeamWaiting();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from competition_teams where id = ${waiting.id} for update`);
      await released;
    });
    const withdrawal = withdrawTeam(database.db, captain, first.id, new Date());
    await lockWaiters(1);
    const confirmation = decidePayment(database.db, admin, fee.id, "confirm").then(
      () => "confirmed",
      (error: unknown) => {
        if (!(error instanceof PaymentStateError)) throw error;
        return "refused";
      },
    );
    await lockWaiters(2);
    release();
    const [, , decided] = await Promise.all([holding, withdrawal, confirmation]);
    expect(decided).toBe("refused");
    const [row] = await database.db.select().from(payments).where(eq(payments.id, fee.id));
    expect(row!.status).toBe("cancelled");
    const [next] = await database.db
      .select()
      .from(competitionTeams)
      .where(eq(competitionTeams.id, waiting.id));
    expect(next!.status).toBe("pending");
  },
);

test(`two refunds of one payment at once: one is recorded, the other refused (${databaseName})`, async () => {
  const refunds = await Promise.all(
    Array.from({ length: ROUNDS }, async () => {
      const event = await createTestEvent(database.db, admin, { fechaEvento: "2031-08-08" });
      await database.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, event.id));
      const payer = await member("Caro Mamani");
      const [paid] = await database.db
        .insert(payments)
        .values({
          eventId: event.id,
          userId: payer.id,
          amountCents: 3000,
          status: "confirmed",
          leftAt: new Date(),
        })
        .returning();
      return paid!;
    }),
  );
  const outcomes = await Promise.all(
    refunds.map((paid) =>
      Promise.all(
        ["Transferencia 1", "Transferencia 2"].map((note) =>
          recordRefund(database.db, admin, paid.id, note).then(
            () => note,
            (error: unknown) => {
              expect(error).toBeInstanceOf(PaymentStateError);
              return null;
            },
          ),
        ),
      ),
    ),
  );
  for (const [i, results] of outcomes.entries()) {
    const recorded = results.filter((r) => r !== null);
    expect(recorded).toHaveLength(1);
    const [row] = await database.db.select().from(payments).where(eq(payments.id, refunds[i]!.id));
    expect(row!.status).toBe("refunded");
    expect(row!.refundNote).toBe(recorded[0]);
  }
});
