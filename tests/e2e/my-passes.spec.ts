// 'Mis entradas' (decision 050) in a real browser with the network cut: a member opens the page
// once from the user menu, loses the connection, and the page opens again from the phone with
// their passes (the QR read back is their own token), a course's sessions and their certificate,
// saying when it was last updated; when the connection returns it refreshes. Signing out, and
// another member signing in on the same phone, leave nothing of the first member on it. axe on
// the page online and offline.
import type { Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  inLaPaz,
  shoot,
  signInAdmin,
  signInOverHttp,
  signInWithDevProvider,
  freshEmail,
  completeProfileOverHttp,
  memberData,
  publishEvent,
  test,
  untilHydrated,
  workerBaseUrl,
} from "./fixtures";
import { decodeQr } from "../helpers/qr-decode";

/** Publishes an event in El Alto at 19:00 (La Paz) on `day`, as the signed-in admin; its id. */
function publish(page: Page, name: string, day: string, price?: string): Promise<string> {
  // 19:00 in La Paz is 23:00 UTC.
  const startsAt = new Date(`${day}T23:00:00Z`);
  return publishEvent(page, name, { startsAt, ubicacion: "Bolivia, El Alto", price });
}

async function post(page: Page, path: string, form: Record<string, string>) {
  const origin = new URL(workerBaseUrl()).origin;
  const reply = await page.request.post(path, { form, headers: { Origin: origin } });
  expect(reply.ok(), `${path}: ${reply.status()}`).toBe(true);
}

/** Opens 'Mis entradas' and waits until the phone keeps it and every file it loaded. */
async function openAndKeep(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: "Mis entradas" })).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const files = performance
          .getEntriesByType("resource")
          .map((entry) => new URL(entry.name))
          .filter((url) => url.origin === location.origin && url.pathname.startsWith("/assets/"));
        const kept = await Promise.all(files.map((url) => caches.match(url.pathname)));
        return Boolean(await caches.match("/mis-entradas")) && kept.every(Boolean);
      }),
    )
    .toBe(true);
}

/** Everything the site stored in this browser: caches, IndexedDB, local storage, workers. */
function storedOnDevice(page: Page) {
  return page.evaluate(async () => ({
    caches: await caches.keys(),
    databases: (await indexedDB.databases()).map((db) => db.name),
    localStorage: localStorage.length,
    // React Router keeps scroll positions there; anything else would be the site's.
    sessionStorage: Object.keys(sessionStorage).filter((key) => !key.startsWith("react-router")),
    workers: (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope),
  }));
}

const NOTHING = { caches: [], databases: [], localStorage: 0, sessionStorage: [], workers: [] };

function updatedAt(page: Page) {
  return page.locator(".passes-status time").getAttribute("datetime");
}

test("Mis entradas opens without a connection: passes, sessions and certificates, the QR is the member's token, and it refreshes when the connection returns", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // Offline, the browser reports the requests it could not make (React Router's route discovery).
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  const stamp = Date.now();
  await signInAdmin(page);
  const course = `Curso del ratón ${stamp}`;
  const paid = `Taller pagado ${stamp}`;
  const past = `Taller con certificado ${stamp}`;
  const courseId = await publish(page, course, "2036-06-02");
  // Monday 2 June 2036 and three more evenings.
  await post(page, `/admin/eventos/${courseId}`, {
    intent: "generateSessions",
    regla: "laborables",
    desde: "2036-06-03",
    hasta: "2036-06-05",
    inicio: "19:00",
    duracion: "120",
  });
  const paidId = await publish(page, paid, "2036-07-10", "30");
  // It starts within the hour, so that its door is open (decision 075) when the admin marks her.
  const pastId = await publishEvent(page, past, {
    startsAt: new Date(Date.now() + 60 * 60_000),
    ubicacion: "Bolivia, El Alto",
  });

  const phone = await browser.newContext({ baseURL });
  const member = await phone.newPage();
  const ana = await createMember(member, { nombreCompleto: "Ana Condori" });
  for (const eventId of [courseId, paidId, pastId])
    await post(member, `/detalles/${eventId}`, { intent: "join" });
  // The admin marks her present at the certificate's event, which then ends (its date moved back).
  await page.goto(`/admin/eventos/${pastId}/participantes`);
  await page.getByRole("button", { name: "Marcar presente a Ana Condori" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Asistencia registrada.");
  await post(page, "/admin", {
    intent: "update",
    eventId: pastId,
    nombreEvento: past,
    ubicacionEvento: "Bolivia, El Alto",
    tipoEvento: "Presencial",
    fechaEvento: "2025-05-20",
    horaEvento: "19:00",
    imagenEnlace: `${new URL(baseURL!).origin}/demo/vision.svg`,
    ubicacionEspecifica: "",
    capacity: "",
    descripcion: "Con registro en la puerta.",
  });
  const list = await (await page.request.get(`/admin/eventos/${courseId}/registro/datos`)).json();
  const token: string = list.participants.find(
    (p: { nombre: string }) => p.nombre === "Ana Condori",
  ).token;

  // ——— Reached from the event page and from the user menu ———
  await member.goto(`/detalles/${courseId}`);
  await expect(member.getByRole("link", { name: "Ver en Mis entradas" })).toHaveAttribute(
    "href",
    "/mis-entradas",
  );
  await member.getByRole("button", { name: ana.nombreCompleto }).click();
  await member.getByRole("menuitem", { name: "Mis entradas" }).click();
  await expect(member).toHaveURL(/\/mis-entradas$/);
  await untilHydrated(member);
  await openAndKeep(member);

  const coursePass = member.getByRole("article", { name: course });
  await expect(coursePass).toContainText("Plaza confirmada");
  await expect(coursePass).toContainText("Bolivia, El Alto");
  await expect(coursePass.getByRole("heading", { name: "Quedan 4 sesiones" })).toBeVisible();
  await expect(coursePass.getByRole("listitem")).toHaveCount(4);
  const paidPass = member.getByRole("article", { name: paid });
  await expect(paidPass).toContainText("Pendiente de pago");
  await expect(paidPass.getByRole("link", { name: "Pagar mi inscripción" })).toBeVisible();
  await expect(member.getByRole("article", { name: past })).toHaveCount(0);
  const certificates = member.getByRole("region", { name: "Mis certificados" });
  await expect(certificates).toContainText(past);
  await expect(certificates).toContainText(
    /Código de verificación: [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/,
  );
  await expect(member.locator(".passes-status")).toContainText("Actualizado:");
  await expectNoAxeViolations(member);
  expect(await member.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    1280,
  );
  await shoot(member, "mis-entradas");
  const firstUpdate = await updatedAt(member);
  const keptAt = await member.evaluate(async () => {
    const copy = await (await caches.match("/mis-entradas"))!.text();
    return new DOMParser()
      .parseFromString(copy, "text/html")
      .querySelector(".passes-status time")!
      .getAttribute("datetime");
  });
  expect(keptAt! >= firstUpdate!).toBe(true);

  // While she has no signal, the treasurer confirms her payment.
  await page.goto("/tesoreria/pagos?ver=pendientes");
  await page
    .getByRole("listitem")
    .filter({ hasText: paid })
    .getByRole("button", { name: "Confirmar" })
    .click();
  await expect(page.getByRole("alertdialog").filter({ hasText: "Pago confirmado." })).toBeVisible();

  // ——— No connection: the page opens from the phone ———
  await phone.setOffline(true);
  await member.reload();
  await untilHydrated(member);
  await expect(member.getByRole("heading", { level: 1, name: "Mis entradas" })).toBeVisible();
  await expect(member.locator(".passes-status")).toContainText(
    "Sin conexión. Datos guardados en este teléfono el",
  );
  // The time of the copy the phone keeps (made as the page was first kept).
  expect(await updatedAt(member)).toBe(keptAt);
  await expect(member.getByRole("article", { name: course }).getByRole("listitem")).toHaveCount(4);
  await expect(member.getByRole("article", { name: paid })).toContainText("Pendiente de pago");
  await expect(member.getByRole("region", { name: "Mis certificados" })).toContainText(past);
  const qr = member
    .getByRole("article", { name: course })
    .getByRole("img", { name: `Código QR de registro para ${course}` });
  await expect(qr).toBeVisible();
  expect(await decodeQr(await qr.screenshot())).toBe(token);
  await expectNoAxeViolations(member);
  await member.setViewportSize({ width: 360, height: 780 });
  expect(await member.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    360,
  );
  // The QR is still read at a phone's width.
  expect(await decodeQr(await qr.screenshot())).toBe(token);
  await member.evaluate(() => window.scrollTo(0, 0));
  await shoot(member, "mis-entradas-sin-conexion");

  // ——— The connection returns: the page and the phone's copy are brought up to date ———
  await phone.setOffline(false);
  await expect(member.locator(".passes-status")).toContainText("Actualizado:");
  await expect(member.getByRole("article", { name: paid })).toContainText("Pagada");
  expect(await updatedAt(member)).not.toBe(keptAt);
  await expect
    .poll(() =>
      member.evaluate(async () => (await (await caches.match("/mis-entradas"))?.text()) ?? ""),
    )
    .toContain("Pagada");
  await phone.setOffline(true);
  await member.reload();
  await expect(member.getByRole("article", { name: paid })).toContainText("Pagada");
  await phone.setOffline(false);
  await phone.close();
});

test("signing out, and another member signing in on the same phone, leave nothing of the first member", async ({
  page,
  consoleErrors,
}) => {
  // Offline, the page left open asks for the routes of its links and cannot.
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED|Failed to fetch manifest patches/);
  await signInAdmin(page);
  const name = `Feria sin señal ${Date.now()}`;
  const eventId = await publish(page, name, "2036-08-15");
  await page.context().clearCookies();

  // ——— Ana signs out with the user menu ———
  const ana = await createMember(page, { nombreCompleto: "Ana Condori" });
  await post(page, `/detalles/${eventId}`, { intent: "join" });
  await page.goto("/mis-entradas");
  await openAndKeep(page);
  expect((await storedOnDevice(page)).caches).toEqual(["ayllu-entradas-v1"]);
  await page.getByRole("button", { name: ana.nombreCompleto }).click();
  await page.getByRole("menuitem", { name: "Cerrar Sesión" }).click();
  await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
  expect(await storedOnDevice(page)).toEqual(NOTHING);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain("ayllu_copia");
  await page.context().setOffline(true);
  await expect(page.goto("/mis-entradas")).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await page.context().setOffline(false);

  // ——— Ana again; her session ends without signing out, and Beto signs in on the phone ———
  expect(await signInOverHttp(page, { email: ana.email })).toBe("/");
  // Chromium may reload the page itself as the sign-in's answer clears what the phone kept; a
  // navigation interrupted by that reload of the same page lands where it was going.
  await page.goto("/mis-entradas").catch(async (error: unknown) => {
    if (!/interrupted by another navigation to "[^"]*\/mis-entradas"/.test(String(error)))
      throw error;
    await page.waitForURL("**/mis-entradas");
    await untilHydrated(page);
  });
  await openAndKeep(page);
  await expect(page.getByRole("article", { name })).toBeVisible();
  const anaCode = await page.locator(".checkin-pass-code").first().textContent();
  // Her session (and the provider's) end; the phone keeps the mark of whose passes it holds.
  await page.context().clearCookies({ name: /^(?!ayllu_copia$)/ });
  const beto = freshEmail("beto");
  await signInWithDevProvider(page, { email: beto });
  await completeProfileOverHttp(page, memberData({ nombreCompleto: "Beto Choque" }));
  await page.goto("/");
  expect(await storedOnDevice(page)).toEqual(NOTHING);

  // Offline, nothing of Ana's opens; online, Beto sees his own page, without her pass.
  await page.context().setOffline(true);
  await expect(page.goto("/mis-entradas")).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await page.context().setOffline(false);
  await page.goto("/mis-entradas");
  await expect(page.getByText("No tienes entradas para próximos eventos.")).toBeVisible();
  await expect(page.getByText(anaCode!)).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a place whose payment treasury has not confirmed shows a greyed pass that says why, with no code to scan", async ({
  page,
}) => {
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const name = `Taller pagado ${Date.now()}`;
  const starts = inLaPaz(new Date(Date.now() + 10 * 86_400_000));
  const published = await page.request.post("/admin", {
    headers: { Origin: origin },
    form: {
      intent: "publish",
      nombreEvento: name,
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      fechaEvento: starts.fecha,
      horaEvento: starts.hora,
      imagenEnlace: `${origin}/demo/vision.svg`,
      ubicacionEspecifica: "",
      capacity: "20",
      price: "30",
      holdHours: "",
      descripcion: "Taller de robótica.",
    },
  });
  expect(published.ok()).toBe(true);
  const panel = await (
    await page.request.get(`/admin?buscarEvento=${encodeURIComponent(name)}`)
  ).text();
  const link = new RegExp(`<a[^>]*aria-label="Participantes de ${name}"[^>]*>`).exec(panel)?.[0];
  const eventId = /href="\/admin\/eventos\/([0-9a-f-]{36})\/participantes"/.exec(link ?? "")![1]!;
  await page.context().clearCookies();

  await createMember(page);
  await page.goto(`/detalles/${eventId}`);
  await page.getByRole("button", { name: "Participar" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  const sent = await page.request.post(`/detalles/${eventId}/pago`, {
    headers: { Origin: origin },
    form: { intent: "transaction", transactionNumber: "TRX-0042" },
  });
  expect(sent.ok()).toBe(true);
  await page.goto("/mis-entradas");
  const card = page.getByRole("article", { name });
  await expect(card.getByText("Aún no válida: pago por revisar")).toBeVisible();
  await expect(
    card.getByText("Tu código QR aparecerá aquí cuando tesorería confirme el pago."),
  ).toBeVisible();
  await expect(card.locator("svg")).toHaveCount(0);
  await expect(card.getByText("Código:")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await shoot(page, "mis-entradas-no-valida", card);
  await page.goto(`/detalles/${eventId}`);
  await expect(page.getByText("Aún no válida: pago por revisar")).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "evento-entrada-no-valida");
});
