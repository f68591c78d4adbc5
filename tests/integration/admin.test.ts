// The admin panel's members (§2 Admin panel): list, search, pagination with 50,000 members,
// 'Detalles del Usuario', and granting or revoking admin without ever losing the last admin.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { participations, users, type User } from "~/db/schema.server";
import { failOnConsoleError } from "../helpers/console";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import {
  alertsIn,
  createAdmin,
  createMember,
  createTestEvent,
  landOn,
  snapshot,
} from "../helpers/events";
import { shown } from "../helpers/shown";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

function rowsOf(html: string): { name: string; email: string; admin: boolean }[] {
  return [
    ...html.matchAll(
      /<a[^>]*class="user-row"[^>]*><span><strong>([^<]*)<\/strong><span class="muted user-email">(.*?)<\/span><\/span>(<span class="admin-badge">ADMIN<\/span>)?<\/a>/g,
    ),
  ].map((m) => ({
    name: m[1]!,
    // The address as read: without the break points (<wbr>) between its parts.
    email: m[2]!.replace(/<[^>]*>/g, ""),
    admin: Boolean(m[3]),
  }));
}

function detailOf(html: string, term: string): string | null {
  return new RegExp(`<dt>${term}</dt><dd>([^<]*)</dd>`).exec(html)?.[1] ?? null;
}

test("the user list shows each member's name and e-mail, and the ADMIN badge on admins only", async () => {
  const { user } = await createMember(server, `lista-${randomUUID()}@example.com`, "Rosa Lista");
  const page = await admin.client.get(`/admin?q=${encodeURIComponent(user.email)}`);
  expect(rowsOf(page.text)).toEqual([{ name: "Rosa Lista", email: user.email, admin: false }]);
  const adminRow = await admin.client.get("/admin?q=jefa%40example.com");
  expect(rowsOf(adminRow.text)).toEqual([
    { name: "Jefa Admin", email: "jefa@example.com", admin: true },
  ]);
});

test("search finds members by name or e-mail on the server, ignoring case, and treats % and _ as text", async () => {
  const tag = randomUUID().slice(0, 8);
  await server.db.insert(users).values([
    {
      issuer: "https://t.invalid",
      subject: `a-${tag}`,
      email: `quispe.${tag}@example.com`,
      nombreCompleto: "Juana Quispe",
    },
    {
      issuer: "https://t.invalid",
      subject: `b-${tag}`,
      email: `otra.${tag}@example.com`,
      nombreCompleto: `Marta Mamani ${tag}`,
    },
  ]);
  const byName = await admin.client.get(
    `/admin?q=${encodeURIComponent(`MAMANI ${tag.toUpperCase()}`)}`,
  );
  expect(rowsOf(byName.text).map((r) => r.email)).toEqual([`otra.${tag}@example.com`]);
  const byEmail = await admin.client.get(`/admin?q=QUISPE.${tag}`);
  expect(rowsOf(byEmail.text).map((r) => r.name)).toEqual(["Juana Quispe"]);
  const wildcard = await admin.client.get("/admin?q=%25");
  expect(rowsOf(wildcard.text)).toEqual([]);
  expect(wildcard.text).toContain("Ningún usuario coincide con la búsqueda.");
  const long = await admin.client.get(`/admin?q=${"x".repeat(5000)}`);
  expect((await landOn(admin.client, long)).status).toBe(200);
});

test("a search holding NUL or other control characters finds nobody instead of failing", async () => {
  for (const q of ["%00", "a%00b", "%01%1F", "x%7F", "a%0Db"]) {
    const reply = await admin.client.get(`/admin?q=${q}`);
    expect(reply.status, q).toBe(200);
    expect(rowsOf(reply.text), q).toEqual([]);
    expect(reply.text, q).toContain("Ningún usuario coincide con la búsqueda.");
    const data = await admin.client.get(`/admin.data?q=${q}`);
    expect(data.status, q).toBe(200);
  }
});

test("an 8 KB search is sent back to an address with its first 100 characters, and the page carries only those", async () => {
  const long = await admin.client.get(`/admin?q=${"y".repeat(8192)}&pagina=1`);
  expect(long.status).toBe(302);
  expect(pathOf(long.location)).toBe(`/admin?q=${"y".repeat(100)}&pagina=1`);
  const reply = await landOn(admin.client, long);
  expect(reply.status).toBe(200);
  expect(reply.text).not.toContain("y".repeat(101));
  expect(reply.text).toContain("y".repeat(100));
  expect(reply.text.length).toBeLessThan(200_000);
});

test("a run of /admin views and their page data raises no process warning (no listener leak)", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  try {
    const event = await createTestEvent(server.db, admin.user);
    const { user } = await createMember(server);
    const views = [
      `/admin?q=a`,
      `/admin.data?q=b`,
      `/admin?galeria=${event.id}`,
      `/admin?editar=${event.id}`,
      `/admin?eliminar=${event.id}`,
      `/admin?usuario=${user.id}`,
      `/admin.data?usuario=${user.id}&galeria=${event.id}`,
    ];
    for (let i = 0; i < 3; i++) {
      for (const view of views) expect((await admin.client.get(view)).status, view).toBe(200);
      // And several at once, as a browser loading a page and its data does.
      const together = await Promise.all(views.map((view) => admin.client.get(view)));
      expect(together.map((r) => r.status)).toEqual(views.map(() => 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("warning", onWarning);
  }
  expect(warnings).toEqual([]);
});

test("'Detalles del Usuario' shows every field, 'N/A' when missing, admin Sí/No, and the member's events with dates", async () => {
  const { user } = await createMember(
    server,
    `detalle-${randomUUID()}@example.com`,
    "Pedro Detalle",
  );
  const page = await admin.client.get(`/admin?usuario=${user.id}`);
  expect(page.text).toContain("Detalles del Usuario");
  expect(detailOf(page.text, "Nombre de Google")).toBe("Pedro Detalle");
  expect(detailOf(page.text, "Correo electrónico")).toBe(user.email);
  expect(detailOf(page.text, "Nombre completo")).toBe("Pedro Detalle");
  expect(detailOf(page.text, "Fecha de nacimiento")).toBe("17 de mayo de 1990");
  expect(detailOf(page.text, "País")).toBe("Bolivia");
  expect(detailOf(page.text, "Ciudad")).toBe("La Paz");
  expect(detailOf(page.text, "Género")).toBe("Otro");
  expect(detailOf(page.text, "Habilidades")).toBe("N/A");
  expect(detailOf(page.text, "Administrador")).toBe("No");
  expect(page.text).toContain("Este usuario no está participando en ningún evento.");

  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Evento del detalle",
    fechaEvento: "2032-07-08",
    horaEvento: "10:00",
  });
  await server.db.insert(participations).values({ userId: user.id, eventId: event.id });
  const withEvents = await admin.client.get(`/admin?usuario=${user.id}`);
  expect(withEvents.text).toContain("Evento del detalle");
  expect(withEvents.text).toContain("jueves, 8 de julio de 2032, 10:00\u00a0a.\u00a0m.");
  expect(withEvents.text).not.toContain("Este usuario no está participando en ningún evento.");

  const bare = await server.db
    .insert(users)
    .values({
      issuer: "https://t.invalid",
      subject: randomUUID(),
      email: `sin-${randomUUID()}@example.com`,
    })
    .returning();
  const empty = await admin.client.get(`/admin?usuario=${bare[0]!.id}`);
  for (const term of [
    "Nombre de Google",
    "Nombre completo",
    "Fecha de nacimiento",
    "País",
    "Ciudad",
    "Género",
    "Habilidades",
  ]) {
    expect(detailOf(empty.text, term), term).toBe("N/A");
  }
});

test("an admin grants and revokes admin from the details dialog", async () => {
  const { user, client } = await createMember(server);
  // A dialog for reading a member's details has no filled call to action: 'Hacer administrador'
  // is outlined.
  const details = await admin.client.get(`/admin?usuario=${user.id}`);
  expect(details.text).toMatch(/class="button button-secondary"[^>]*>Hacer administrador</);
  const granted = await admin.client.post(
    "/admin",
    await shown(server.db, {
      intent: "grantAdmin",
      userId: user.id,
      returnTo: `?usuario=${user.id}`,
    }),
  );
  expect(pathOf(granted.location)).toBe(`/admin?usuario=${user.id}`);
  const page = await landOn(admin.client, granted);
  expect(alertsIn(page.text)).toEqual([MESSAGES.adminGranted]);
  expect(detailOf(page.text, "Administrador")).toBe("Sí");
  expect((await client.get("/admin")).status).toBe(200);

  const revoked = await admin.client.post(
    "/admin",
    await shown(server.db, { intent: "revokeAdmin", userId: user.id }),
  );
  expect(alertsIn((await landOn(admin.client, revoked)).text)).toEqual([MESSAGES.adminRevoked]);
  expect((await client.get("/admin")).status).toBe(302);
});

test("the last admin cannot be revoked, not even by themselves, and two admins revoking each other at once leave one", async () => {
  const lone = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  try {
    const only = await createAdmin(lone);
    const before = await snapshot(lone.db);
    const reply = await only.client.post(
      "/admin",
      await shown(lone.db, {
        intent: "revokeAdmin",
        userId: only.user.id,
      }),
    );
    expect(reply.status).toBe(409);
    expect(alertsIn(reply.text)).toEqual([MESSAGES.lastAdmin]);
    expect(await snapshot(lone.db)).toEqual(before);

    const second = await createMember(lone);
    await only.client.post(
      "/admin",
      await shown(lone.db, { intent: "grantAdmin", userId: second.user.id }),
    );
    const replies = await Promise.all([
      only.client.post(
        "/admin",
        await shown(lone.db, { intent: "revokeAdmin", userId: second.user.id }),
      ),
      second.client.post(
        "/admin",
        await shown(lone.db, { intent: "revokeAdmin", userId: only.user.id }),
      ),
    ]);
    // One wins. The other is refused as the last admin (409), or as no longer an admin (403), or
    // (its action refused, the page it would show needs an admin) sent to /inicio.
    const outcomes = replies
      .map((r) => (r.status === 302 ? pathOf(r.location)!.replace(/\?.*/, "") : String(r.status)))
      .sort();
    expect(outcomes).toContain("/admin");
    expect(
      outcomes.filter((o) => o !== "/admin").every((o) => ["403", "409", "/inicio"].includes(o)),
    ).toBe(true);
    const [{ n }] = (await lone.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(eq(users.isAdmin, true))) as [{ n: number }];
    expect(n).toBe(1);
  } finally {
    await lone.close();
  }
});

test("an admin who revokes their own rights (another admin remaining) goes to /inicio", async () => {
  const { user, client } = await createMember(server);
  await server.db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
  const reply = await client.post(
    "/admin",
    await shown(server.db, { intent: "revokeAdmin", userId: user.id }),
  );
  expect(pathOf(reply.location)).toBe("/inicio");
  expect((await server.db.select().from(users).where(eq(users.id, user.id)))[0]!.isAdmin).toBe(
    false,
  );
});

test("with 50,000 members the list is paginated and searched on the server", async () => {
  const big = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  try {
    const { client } = await createAdmin(big);
    await big.db.execute(sql`
      insert into users (issuer, subject, email, nombre_completo)
      select 'https://t.invalid', 'carga-' || g, 'carga' || g || '@example.com', 'Persona ' || g
      from generate_series(1, 50000) g`);
    const started = performance.now();
    const first = await client.get("/admin");
    const firstMs = performance.now() - started;
    expect(first.status).toBe(200);
    expect(rowsOf(first.text)).toHaveLength(25);
    expect(first.text).toContain("50001 usuarios");
    expect(first.text).toContain("Página 1 de 2001");
    expect(first.text.length).toBeLessThan(200_000);
    const last = await client.get("/admin?pagina=2001");
    expect(rowsOf(last.text)).toHaveLength(1);
    const tooFar = await client.get("/admin?pagina=999999");
    expect(tooFar.text).toContain("Página 2001 de 2001");
    const s0 = performance.now();
    const found = await client.get("/admin?q=carga49999%40");
    const searchMs = performance.now() - s0;
    expect(rowsOf(found.text).map((r) => r.email)).toEqual(["carga49999@example.com"]);
    // A figure to read, not a rule: timings are not asserted in tests.
    console.log(
      `50.001 miembros: primera página ${firstMs.toFixed(0)} ms, búsqueda ${searchMs.toFixed(0)} ms`,
    );
  } finally {
    await big.close();
  }
});
