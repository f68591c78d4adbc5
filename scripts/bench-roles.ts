// npm run bench:roles — what roles and the audit log cost a request (decisions 038 and 039):
// - the capability check (assertMay over the table) per call, for an admin, an organiser holding
//   20 grants, and door staff whose window is worked out;
// - reading a member's grants, as every signed-in request does with its session;
// - the audit write: a change's transaction with and without its log entry.
// On a fresh embedded database, and with DATABASE_URL on a fresh PostgreSQL database (dropped
// afterwards). BENCH_ROUNDS (default 2000) transactions per row.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { eq } from "drizzle-orm";
import pg from "pg";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";
import { events, roleGrants, users } from "../app/db/schema.server";
import { assertMay, type Grant } from "../app/kernel/permissions";
import { loadGrants } from "../app/members/roles.server";
import { createSession, getSessionUser } from "../app/members/session.server";
import { recordAudit } from "../app/audit/audit.server";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);

function perCall(label: string, n: number, run: () => void) {
  for (let i = 0; i < 1000; i++) run(); // warm up
  const start = performance.now();
  for (let i = 0; i < n; i++) run();
  const us = ((performance.now() - start) * 1000) / n;
  console.log(`  ${label.padEnd(58)} ${us.toFixed(3).padStart(9)} µs/llamada`);
}

async function perRound(label: string, n: number, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 50; i++) await run(i);
  const start = performance.now();
  for (let i = 0; i < n; i++) await run(i);
  const ms = (performance.now() - start) / n;
  console.log(`  ${label.padEnd(58)} ${ms.toFixed(3).padStart(9)} ms/petición`);
  return ms;
}

function capabilityCheck() {
  console.log("Comprobación de capacidades (assertMay, en memoria)");
  const eventIds = Array.from({ length: 20 }, () => randomUUID());
  const admin = { isAdmin: true, grants: [] };
  const organiser = {
    isAdmin: false,
    grants: eventIds.map((eventId): Grant => ({ kind: "organiser", eventId })),
  };
  const door = { isAdmin: false, grants: [{ kind: "door", eventId: eventIds[7]! } as Grant] };
  const window = {
    startsAt: new Date(Date.now() + 3_600_000),
    endsAt: new Date(Date.now() + 7_200_000),
    doorHoursBefore: 3,
    doorHoursAfter: 6,
  };
  const N = 1_000_000;
  perCall("admin, event.edit", N, () => assertMay(admin, "event.edit", { eventId: eventIds[0] }));
  perCall("organizador con 20 roles, el último en el alcance", N, () =>
    assertMay(organiser, "event.edit", { eventId: eventIds[19] }),
  );
  perCall("puerta, event.checkIn con horario", N, () =>
    assertMay(door, "event.checkIn", { eventId: eventIds[7], window, now: new Date() }),
  );
  perCall("negado (lanza NotAllowedError)", N / 10, () => {
    try {
      assertMay(door, "event.edit", { eventId: eventIds[7] });
    } catch {
      /* refused, as measured */
    }
  });
}

async function database(name: string, database: Database) {
  const { db } = database;
  console.log(`${name}`);
  const [user] = await db
    .insert(users)
    .values({ issuer: "https://bench.invalid", subject: randomUUID(), email: "b@example.com" })
    .returning();
  const [event] = await db
    .insert(events)
    .values({
      nombreEvento: "Bench",
      ubicacionEvento: "La Paz",
      fechaEvento: "2031-01-01",
      horaEvento: "10:00",
      startsAt: new Date("2031-01-01T14:00:00Z"),
      endsAt: new Date("2031-01-01T16:00:00Z"),
      imagenEnlace: "https://example.com/a.png",
      descripcion: "x",
      publishedByName: "Bench",
    })
    .returning();
  for (const kind of ["organiser", "door"])
    await db.insert(roleGrants).values({ userId: user!.id, kind, eventId: event!.id });
  await db.insert(roleGrants).values({ userId: user!.id, kind: "editor" });

  // Every signed-in request reads its session, and with it (one query) the member's roles.
  const cookie = (await createSession(db, user!.id, { secure: false })).split(";")[0]!;
  const request = new Request("http://127.0.0.1/", { headers: { Cookie: cookie } });
  await perRound("la sesión con los roles (cada petición con sesión)", ROUNDS, () =>
    getSessionUser(db, request, { secure: false }),
  );
  await perRound("los roles en una consulta aparte (lo que se evitó)", ROUNDS, () =>
    loadGrants(db, user!.id),
  );
  const change = (i: number) =>
    db.transaction(async (tx) => {
      await tx
        .update(events)
        .set({ doorHoursBefore: i % 10 })
        .where(eq(events.id, event!.id));
    });
  const without = await perRound("un cambio en su transacción, sin registro", ROUNDS, change);
  const withLog = await perRound("el mismo cambio con su entrada de auditoría", ROUNDS, (i) =>
    db.transaction(async (tx) => {
      await tx
        .update(events)
        .set({ doorHoursBefore: i % 10 })
        .where(eq(events.id, event!.id));
      await recordAudit(tx, {
        actor: user!,
        role: "organiser",
        action: "event.door.window",
        itemKind: "event",
        itemId: event!.id,
        summary: `Registro de entrada de «Bench»: desde ${i % 10} h antes hasta 6 h después`,
      });
    }),
  );
  console.log(
    `  ${"coste de la entrada de auditoría".padEnd(58)} ${(withLog - without).toFixed(3).padStart(9)} ms/petición`,
  );
}

async function main() {
  capabilityCheck();
  const embedded = await openEmbedded(null);
  try {
    await database("Base embebida (PGlite, en memoria)", embedded);
  } finally {
    await embedded.close();
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `ayllu_bench_roles_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const postgres = await openPostgres(target.toString());
    try {
      await database("PostgreSQL", postgres);
    } finally {
      await postgres.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
