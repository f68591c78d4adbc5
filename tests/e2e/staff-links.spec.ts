// Staff links in a real browser (issue 32, decision 041): an organiser makes a door-staff link on
// the event's management page; a fresh browser with no account opens it, checks a pass in, then
// loses the connection and queues another; the organiser revokes the link; when the connection
// returns the queued check-in is refused and the page shows the server's Spanish reason. axe on
// the link list, the staff landing and the check-in page; the screens at 360 and 1280 px go to
// SHOTS_DIR when it is set.
import type { BrowserContext } from "@playwright/test";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  shoot,
  signInOverHttp,
  publishEvent,
  test,
  workerBaseUrl,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

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
  const code = (await page.locator(".checkin-pass-code").textContent())!.trim();
  await page.close();
  return code;
}

test("an organiser makes a staff link; a phone without an account opens it and checks a pass in; once revoked, its queued check-in is refused in Spanish", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // Offline, the browser reports what it could not fetch; after the revocation, the refused posts.
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  consoleErrors.allow(/status of 410/);
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  const origin = new URL(workerBaseUrl()).origin;
  // Starting in an hour: within the door hours (3 h before the start by default).
  const name = `Feria con enlace ${Date.now()}`;
  const eventId = await publishEvent(page, name, {
    startsAt: new Date(Date.now() + 3_600_000),
    descripcion: "Con voluntarios en la puerta.",
  });

  const members = await browser.newContext({ baseURL });
  const anaCode = await participantCode(members, eventId!, "Ana Condori");
  await members.clearCookies();
  const betoCode = await participantCode(members, eventId!, "Beto Choque");
  await members.close();

  // The organiser (made so by the admin on the management page).
  const organiserContext = await browser.newContext({ baseURL });
  const organiserPage = await organiserContext.newPage();
  const organiser = await createMember(organiserPage, { nombreCompleto: "Olga Organiza" });
  const granted = await page.request.post(`/admin/eventos/${eventId}`, {
    headers: { Origin: origin },
    form: { intent: "grantRole", visto: "sin-rol", email: organiser.email, kind: "organiser" },
  });
  expect(granted.ok()).toBe(true);

  await organiserPage.goto(`/admin/eventos/${eventId}/horario`);
  const links = organiserPage.getByRole("region", { name: "Enlaces de registro" });
  await expect(links.getByText("Todavía no hay enlaces de registro")).toBeVisible();
  await links.getByLabel("Para quién").fill("Lucía Voluntaria");
  await expect(links.getByLabel("Vence")).not.toHaveValue("");
  await links.getByRole("button", { name: "Crear enlace" }).click();
  await expect(links.getByRole("status")).toContainText("Enlace para «Lucía Voluntaria» creado.");
  const url = await links.getByLabel("Enlace", { exact: true }).inputValue();
  expect(url).toMatch(/\/puerta\/[A-Za-z0-9_-]{48}$/);
  const share = await links
    .getByRole("link", { name: "Compartir por WhatsApp" })
    .getAttribute("href");
  expect(share).toMatch(/^https:\/\/wa\.me\/\?text=/);
  expect(decodeURIComponent(share!.slice("https://wa.me/?text=".length))).toContain(url);
  await expect(links.getByRole("listitem").filter({ hasText: "Lucía Voluntaria" })).toContainText(
    "Activo",
  );
  await expectNoAxeViolations(organiserPage);
  await shoot(organiserPage, "enlaces", links);

  // ——— A phone with no account opens the link ———
  const phoneContext = await browser.newContext({ baseURL });
  const phone = await phoneContext.newPage();
  await phone.goto(url);
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText(`Registro de entrada: ${name}`);
  await expect(phone.getByText("Lucía Voluntaria")).toBeVisible();
  await expectNoAxeViolations(phone);
  await shoot(phone, "enlace-llegada");
  await phone.getByRole("button", { name: "Empezar a registrar" }).click();
  await expect(phone).toHaveURL(new RegExp(`/admin/eventos/${eventId}/registro$`));
  await expect(phone.getByRole("heading", { level: 1 })).toHaveText(`Registro: ${name}`);
  await expect(phone.getByText("Enlace de registro «Lucía Voluntaria»")).toBeVisible();
  await expect(phone.getByRole("link", { name: "Participantes", exact: true })).toHaveCount(0);
  await expect(phone.getByRole("button", { name: /^Marcar presente a / }).first()).toBeVisible();
  await phone.getByLabel("Código de la persona").fill(anaCode);
  await phone.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(phone.getByRole("heading", { level: 2, name: "Ana Condori" })).toBeVisible();
  await expect(phone.locator(".admin-checkin-verdict")).toContainText("Presente");
  await expect(phone.locator(".admin-checkin-status")).toContainText("Nada pendiente");
  await expectNoAxeViolations(phone);
  await shoot(phone, "enlace-registro");
  // The link opens nothing else.
  const other = await phone.request.get(`/admin/eventos/${eventId}/participantes`);
  expect(other.status()).toBe(403);

  // ——— Offline, the phone queues Beto; meanwhile the organiser revokes the link ———
  await phoneContext.setOffline(true);
  await expect(phone.locator(".admin-checkin-status")).toContainText("Sin conexión");
  await phone.getByLabel("Código de la persona").fill(betoCode);
  await phone.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(phone.locator(".admin-checkin-status")).toContainText("1 registro por enviar");

  await organiserPage.reload();
  const item = links.getByRole("listitem").filter({ hasText: "Lucía Voluntaria" });
  await item.getByRole("button", { name: /^Revocar/ }).click();
  await expect(organiserPage.getByRole("alertdialog")).toContainText("Enlace de registro revocado");
  await organiserPage.getByRole("alertdialog").getByRole("button").first().click();
  await expect(item).toContainText("Revocado");
  await expect(item.getByRole("button", { name: /^Revocar/ })).toHaveCount(0);
  await expectNoAxeViolations(organiserPage);
  await shoot(
    organiserPage,
    "enlaces-lista",
    links.getByRole("heading", { name: "Enlaces creados" }),
  );

  // ——— Back online: the queued check-in is refused, and the page says the server's reason ———
  await phoneContext.setOffline(false);
  await expect(phone.getByText("Este enlace de registro fue revocado")).toBeVisible();
  await expect(phone.locator(".admin-checkin-status")).toContainText("Nada pendiente");
  await shoot(phone, "enlace-revocado", phone.getByRole("heading", { level: 1 }));
  const after = await phone.request.get(`/admin/eventos/${eventId}/registro`);
  expect(after.status()).toBe(410);

  await phoneContext.close();
  await organiserContext.close();
});
