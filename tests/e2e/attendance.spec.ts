// Seats and the waiting list in a real browser: an admin publishes an event of one seat; one
// member takes it; another finds it full, joins the waiting list and sees their place; when the
// first leaves, the second has the seat. The admin sees both on the participants page. axe on
// every page.
import type { Page } from "@playwright/test";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
  okAlert,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

function seats(page: Page) {
  return page
    .locator(".detail", { has: page.locator("dt", { hasText: /^Plazas$/ }) })
    .locator("dd");
}

test("a member joins a full event's waiting list and gets the seat when its participant leaves", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Curso de una plaza ${Date.now()}`;

  // ——— The admin publishes an event with one seat ———
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  await page.goto("/admin");
  const form = page.locator("#evento-form");
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, Cochabamba");
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2036-05-20");
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill("09:00");
  await form.getByLabel("Cupo (plazas, opcional)").fill("1");
  await form.getByLabel("Enlace de la imagen").fill(`${baseURL}/demo/vision.svg`);
  await form.getByLabel("Descripción").fill("Un solo lugar.");
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  await okAlert(page, "Evento publicado con éxito!");
  const row = page.locator(".admin-event-list li").filter({ hasText: name });
  const participantsHref = await row
    // In the row's menu, closed: read, not clicked.
    .getByRole("link", { name: `Participantes de ${name}`, includeHidden: true })
    .getAttribute("href");
  const eventPath = participantsHref!.replace(
    /^\/admin\/eventos\/([^/]+)\/participantes$/,
    "/detalles/$1",
  );

  // ——— A first member takes the seat ———
  const firstContext = await browser.newContext({ baseURL });
  const first = await firstContext.newPage();
  await createMember(first, { nombreCompleto: "Primera Persona" });
  await first.goto(eventPath);
  await expect(seats(first)).toHaveText("Queda 1 plaza");
  await expectNoAxeViolations(first);
  await first.getByRole("button", { name: "Participar", exact: true }).click();
  await okAlert(first, "¡Te has registrado para participar en este evento!");
  await expect(seats(first)).toHaveText("Cupo completo");

  // ——— A second member finds it full and waits ———
  const secondContext = await browser.newContext({ baseURL });
  const second = await secondContext.newPage();
  await createMember(second, { nombreCompleto: "Segunda Persona" });
  await second.goto(eventPath);
  await expect(seats(second)).toHaveText("Cupo completo");
  await expectNoAxeViolations(second);
  await second.getByRole("button", { name: "Unirse a la lista de espera" }).click();
  await okAlert(
    second,
    "El cupo está completo: estás en la lista de espera. Si se libera una plaza, será tuya.",
  );
  await expect(second.getByText("Estás en la lista de espera: posición 1")).toBeVisible();
  await expect(second.getByRole("button", { name: "Salir de la lista de espera" })).toBeVisible();
  await expectNoAxeViolations(second);

  // ——— The admin sees both ———
  await page.goto(participantsHref!);
  await expect(
    page.getByRole("heading", { level: 1, name: `Participantes: ${name}` }),
  ).toBeVisible();
  await expect(page.getByText("1 de 1 plaza ocupada")).toBeVisible();
  await expect(page.locator("#participants-title").locator("..")).toContainText("Primera Persona");
  await expect(page.locator("#waiting-title").locator("..")).toContainText("Segunda Persona");
  await expectNoAxeViolations(page);

  // ——— The first leaves; the second has the seat ———
  await first.getByRole("button", { name: "Dejar de Participar" }).click();
  await okAlert(first, "Has dejado de participar en este evento.");
  await expect(first.getByRole("button", { name: "Unirse a la lista de espera" })).toBeVisible();
  await second.reload();
  await expect(second.getByRole("button", { name: "Dejar de Participar" })).toBeVisible();
  await expect(second.getByText(/Estás en la lista de espera/)).toHaveCount(0);
  await expectNoAxeViolations(second);
  await page.reload();
  await expect(page.locator("#participants-title").locator("..")).toContainText("Segunda Persona");
  await expect(page.getByText("Nadie está en la lista de espera.")).toBeVisible();

  await firstContext.close();
  await secondContext.close();
});
