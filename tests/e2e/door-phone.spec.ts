// The door on one phone screen: at 360 × 640 the code field and 'Registrar' are in view without
// scrolling, and after a check-in the result and the field, empty and focused for the next code,
// are still in view.
import type { BrowserContext } from "@playwright/test";
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

async function participantCode(context: BrowserContext, eventId: string, name: string) {
  const page = await context.newPage();
  await createMember(page, { nombreCompleto: name });
  const origin = new URL(workerBaseUrl()).origin;
  await page.request.post(`/detalles/${eventId}`, {
    headers: { Origin: origin },
    form: { intent: "join" },
  });
  await page.goto(`/detalles/${eventId}`);
  return (await page.locator(".checkin-pass-code").textContent())!.trim();
}

test("at 360 × 640 the door's code field, the result and the next code need no scrolling", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const eventId = await publishEvent(page, `Puerta en un teléfono ${Date.now()}`);
  const members = await browser.newContext({ baseURL });
  const code = await participantCode(members, eventId, "Ana Condori");
  await members.close();

  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`/admin/eventos/${eventId}/registro`);
  await expect(page.getByRole("button", { name: /^Marcar presente a / }).first()).toBeVisible();
  const field = page.getByLabel("Código de la persona");
  const submit = page.getByRole("button", { name: "Registrar", exact: true });
  await expect(field).toBeInViewport({ ratio: 1 });
  await expect(submit).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  await field.fill(code);
  await submit.click();
  const result = page.getByRole("heading", { level: 2, name: "Ana Condori" });
  await expect(result).toBeInViewport();
  await expect(field).toBeFocused();
  await expect(field).toHaveValue("");
  await expect(field).toBeInViewport({ ratio: 1 });
  await shoot(page, "door-phone-after-check-in");
});

test("before its hours the door's page says when it opens instead of a dead form, at 360 px, and axe finds nothing", async ({
  page,
}) => {
  await signInAdmin(page);
  // Ten hours ahead: the door (3 hours before, by default) is still closed.
  const eventId = await publishEvent(page, `Puerta cerrada ${Date.now()}`, {
    startsAt: new Date(Date.now() + 10 * 3_600_000),
  });
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`/admin/eventos/${eventId}/registro`);
  await expect(page.getByText(/^La puerta abre (a las|el) /)).toBeVisible();
  await expect(page.getByLabel("Código de la persona")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Registrar", exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shoot(page, "door-phone-closed");
});
