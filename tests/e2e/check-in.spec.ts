// Check-in at the door in a real browser, with the network cut: an admin opens an event's
// check-in page, loses the connection, checks a participant in by their typed code (marked and
// queued on the phone), reloads the page still offline (the service worker and IndexedDB keep it),
// and when the connection returns the queue is sent and the server has it. A second phone marks
// another participant at the same time as the first phone, offline: the person counts once, with
// the earlier time. axe on the check-in page and on the member's pass.
import type { BrowserContext, Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  signInAdmin,
  publishEvent,
  shoot,
  test,
  workerBaseUrl,
} from "./fixtures";

/** A member who joins the event and reads the code under their QR on the event page. */
async function participantCode(context: BrowserContext, eventId: string, name: string) {
  const page = await context.newPage();
  await createMember(page, { nombreCompleto: name });
  const origin = new URL(workerBaseUrl()).origin;
  await page.request.post(`/detalles/${eventId}`, {
    headers: { Origin: origin },
    form: { intent: "join" },
  });
  await page.goto(`/detalles/${eventId}`);
  await expect(page.getByRole("heading", { name: "Tu código de registro" })).toBeVisible();
  await expect(page.getByRole("img", { name: /^Código QR de registro para / })).toBeVisible();
  return { page, code: (await page.locator(".checkin-pass-code").textContent())!.trim() };
}

/** The check-in page, once its script has the list on the phone and its service worker runs. */
async function openCheckIn(page: Page, eventId: string) {
  await page.goto(`/admin/eventos/${eventId}/registro`);
  await expect(page.getByRole("button", { name: /^Marcar presente a / }).first()).toBeVisible();
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The page asks the worker to keep it and its files; wait until the page itself is kept.
  await expect
    .poll(() => page.evaluate(async () => Boolean(await caches.match(location.pathname))))
    .toBe(true);
}

function status(page: Page) {
  return page.locator(".admin-checkin-status");
}

test("check-in works offline: marked and queued on the phone, sent when the connection returns, counted once across two phones", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // Offline, the browser reports the requests it could not make (React Router's route discovery).
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  await signInAdmin(page);
  const name = `Noche de robots ${Date.now()}`;
  const eventId = await publishEvent(page, name);

  const members = await browser.newContext({ baseURL });
  const ana = await participantCode(members, eventId, "Ana Condori");
  await expectNoAxeViolations(ana.page);
  await members.clearCookies();
  const beto = await participantCode(members, eventId, "Beto Choque");
  await members.close();

  // ——— Phone A loses the connection and checks Ana in by her code ———
  await openCheckIn(page, eventId);
  await expect(status(page)).toContainText("0 de 2 presentes");
  await expect(status(page)).toContainText("En línea");
  await expectNoAxeViolations(page);
  await page.context().setOffline(true);
  await expect(status(page)).toContainText("Sin conexión");
  await page.getByLabel("Código de la persona").fill(ana.code.toLowerCase());
  await page.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Ana Condori" })).toBeVisible();
  await expect(page.locator(".admin-checkin-verdict")).toContainText("Presente");
  await expect(status(page)).toContainText("1 de 2 presentes");
  await expect(status(page)).toContainText("1 registro por enviar");

  // Still offline, the page opens again from the phone, with the mark and the queue.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: `Registro: ${name}` })).toBeVisible();
  await expect(status(page)).toContainText("Sin conexión");
  await expect(status(page)).toContainText("1 de 2 presentes");
  await expect(status(page)).toContainText("1 registro por enviar");

  // ——— Phone A marks Beto too, still offline; phone B, online, marks him a little later ———
  await page.getByLabel("Código de la persona").fill(beto.code);
  await page.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(status(page)).toContainText("2 registros por enviar");
  const phoneB = await browser.newContext({ baseURL });
  const b = await phoneB.newPage();
  await signInAdmin(b);
  await openCheckIn(b, eventId);
  await b.getByLabel("Código de la persona").fill(beto.code);
  await b.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(b.locator(".admin-checkin-verdict")).toContainText("Presente");
  await expect(status(b)).toContainText("Nada pendiente");
  await expect(status(b)).toContainText("1 de 2 presentes");

  // ——— The connection returns: phone A sends its queue ———
  await page.context().setOffline(false);
  await expect(status(page)).toContainText("En línea");
  await expect(status(page)).toContainText("Nada pendiente");
  await expect(status(page)).toContainText("2 de 2 presentes");

  // The server has both, Beto once, with phone A's earlier time.
  const list = await (await page.request.get(`/admin/eventos/${eventId}/registro/datos`)).json();
  const byName = new Map(
    list.participants.map((p: { nombre: string; checkedInAt: string | null }) => [
      p.nombre,
      p.checkedInAt,
    ]),
  );
  expect(byName.get("Ana Condori")).toBeTruthy();
  expect(byName.get("Beto Choque")).toBeTruthy();
  await page.goto(`/admin/eventos/${eventId}/participantes`);
  await expect(page.getByText("2 asistieron")).toBeVisible();
  // Phone B, scanning Beto again, is told he was already in, at phone A's time.
  await b.getByLabel("Código de la persona").fill(beto.code);
  await b.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(b.locator(".admin-checkin-verdict")).toContainText("Ya había entrado a las");
  await phoneB.close();
});

test("signing out with a check-in still on the phone asks first: 'Cancelar' keeps it, 'Cerrar sesión igual' lets it go", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/net::ERR_FAILED/);
  await signInAdmin(page);
  const eventId = await publishEvent(page, `Taller de sensores ${Date.now()}`);
  const members = await browser.newContext({ baseURL });
  const ana = await participantCode(members, eventId, "Ana Condori");
  await members.close();

  // The server cannot be reached for check-ins (a captive portal, a dead zone in the hall).
  await openCheckIn(page, eventId);
  await page.route("**/registro/datos", (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  await page.getByLabel("Código de la persona").fill(ana.code);
  await page.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(status(page)).toContainText("1 registro por enviar");

  const signOut = async () => {
    await page.getByRole("button", { name: "Admin E2E" }).click();
    await page.getByRole("menuitem", { name: "Cerrar Sesión" }).click();
  };
  await signOut();
  const warning = page.getByRole("alertdialog", { name: "Hay registros sin enviar" });
  await expect(warning).toContainText(
    "Este teléfono tiene 1 registro de entrada sin enviar. Si cierras sesión ahora, se borran de este teléfono y no llegarán al sitio.",
  );
  // The safe choice has the focus.
  await expect(warning.getByRole("button", { name: "Cancelar" })).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, "sign-out-warning", warning);
  await page.keyboard.press("Enter");
  await expect(warning).toBeHidden();
  await expect(page.getByRole("button", { name: "Admin E2E" })).toBeFocused();
  await expect(status(page)).toContainText("1 registro por enviar");
  await expect(page.getByRole("button", { name: "Admin E2E" })).toBeVisible();

  // In light mode a public page has no scripts: its menu leads to a page that asks the same.
  await page.getByRole("button", { name: "Modo liviano" }).click();
  await page.goto(`/detalles/${eventId}`);
  await expect(page.locator("html")).toHaveAttribute("data-liviano", "");
  await page.locator("summary.user-menu-button").click();
  await page.getByRole("link", { name: "Cerrar Sesión" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Cerrar Sesión" })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "sign-out-page");
  await page.getByRole("button", { name: "Cerrar Sesión" }).click();
  await expect(warning).toContainText("1 registro de entrada sin enviar");
  await warning.getByRole("button", { name: "Cancelar" }).click();
  await expect(warning).toBeHidden();
  await page.getByRole("button", { name: "Desactivar el modo liviano" }).click();
  await expect(page.locator("html")).not.toHaveAttribute("data-liviano", "");
  await page.goto(`/admin/eventos/${eventId}/registro`);
  await expect(status(page)).toContainText("1 registro por enviar");

  // Signing out anyway: the browser forgets what the phone kept, the queue with it.
  await signOut();
  await warning.getByRole("button", { name: "Cerrar sesión igual" }).click();
  await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
  const queued = await page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((db) => db.name);
    return names.includes("ayllu-registro");
  });
  expect(queued).toBe(false);

  // With nothing waiting, signing out asks nothing.
  await page.unroute("**/registro/datos");
  await signInAdmin(page);
  await openCheckIn(page, eventId);
  await expect(status(page)).toContainText("Nada pendiente");
  await signOut();
  await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
});

test("a QR code read by the camera checks the person in; the camera stops when asked and when leaving the page", async ({
  page,
  browser,
  baseURL,
}) => {
  // Chromium on Linux has no BarcodeDetector and the test machine no camera: the browser's two
  // APIs are stood in for (a detector that reads what the test shows it, a canvas as the camera).
  await page.addInitScript(() => {
    const w = window as unknown as {
      shown: string | null;
      camera: MediaStream | null;
      BarcodeDetector: unknown;
    };
    w.shown = null;
    w.camera = null;
    w.BarcodeDetector = class {
      static async getSupportedFormats() {
        return ["qr_code"];
      }
      async detect() {
        return w.shown ? [{ rawValue: w.shown }] : [];
      }
    };
    navigator.mediaDevices.getUserMedia = async () => {
      const canvas = document.createElement("canvas");
      canvas.width = 64;
      canvas.height = 64;
      canvas.getContext("2d")!.fillRect(0, 0, 64, 64);
      w.camera = canvas.captureStream(5);
      return w.camera;
    };
  });
  await signInAdmin(page);
  const eventId = await publishEvent(page, `Taller de visión ${Date.now()}`);
  const members = await browser.newContext({ baseURL });
  await participantCode(members, eventId, "Carla Mendoza");
  await members.close();
  const list = await (await page.request.get(`/admin/eventos/${eventId}/registro/datos`)).json();
  const token: string = list.participants[0].token;

  await page.goto(`/admin/eventos/${eventId}/registro`);
  const cameraEnded = () =>
    page.evaluate(() =>
      (window as unknown as { camera: MediaStream }).camera
        .getTracks()
        .every((track) => track.readyState === "ended"),
    );
  await page.getByRole("button", { name: "Escanear con la cámara" }).click();
  await expect(page.getByLabel("Imagen de la cámara")).toBeVisible();
  await page.evaluate((value) => ((window as unknown as { shown: string }).shown = value), token);
  await expect(page.getByRole("heading", { level: 2, name: "Carla Mendoza" })).toBeVisible();
  await expect(page.locator(".admin-checkin-verdict")).toContainText("Presente");
  await expect(status(page)).toContainText("1 de 1 presentes");
  await expect(status(page)).toContainText("Nada pendiente");
  // A code that is not one of ours.
  await page.evaluate(() => ((window as unknown as { shown: string }).shown = "hola"));
  await expect(page.getByText("Este código QR no es válido.")).toBeVisible();
  await page.getByRole("button", { name: "Detener la cámara" }).click();
  expect(await cameraEnded()).toBe(true);

  await page.getByRole("button", { name: "Escanear con la cámara" }).click();
  await expect(page.getByRole("button", { name: "Detener la cámara" })).toBeVisible();
  expect(await cameraEnded()).toBe(false);
  await page.getByRole("link", { name: "Participantes", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Participantes: / })).toBeVisible();
  expect(await cameraEnded()).toBe(true);
  await expect(page.getByText("1 asistió")).toBeVisible();
});
