// One event's management page in sections with their own addresses (issue 57, decision 079): the
// menu reaches each section without scripts; at 360 px it is one row that scrolls sideways with
// the open section in view, at 1280 px a menu down the side with the section beside it; each
// section passes axe, and a section's form answers on its section.
import {
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  untilHydrated,
  workerBaseUrl,
} from "./fixtures";

const SECTIONS = [
  ["Datos del evento", "", "Editar Evento"],
  ["Sesiones", "/sesiones", "Sesiones"],
  ["Galería", "/galeria", "Galería"],
  ["Horario y enlaces", "/horario", "Horario del registro de entrada"],
  ["Certificado", "/certificado", "Certificado de asistencia"],
  ["Personal", "/personal", "Personal del evento"],
] as const;

test("each section opens from the menu without scripts, at its own address", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: workerBaseUrl(), javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAdmin(page);
  const name = `Por secciones ${Date.now()}`;
  const eventId = await publishEvent(page, name);
  await page.goto(`/admin/eventos/${eventId}`);
  const menu = page.getByRole("navigation", { name: "Gestionar el evento" });
  for (const [label, path, heading] of SECTIONS) {
    await menu.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/eventos/${eventId}${path}$`));
    await expect(page.getByRole("heading", { level: 2, name: heading, exact: true })).toBeVisible();
    await expect(menu.getByRole("link", { name: label, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  }
  // A section's form works there without scripts and answers on it.
  await page.goto(`/admin/eventos/${eventId}/horario`);
  await page.getByLabel("Horas antes del inicio").fill("2");
  await page.getByRole("button", { name: "Guardar horario" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/eventos/${eventId}/horario#puerta-title$`));
  await expect(page.getByLabel("Horas antes del inicio")).toHaveValue("2");
  await context.close();
});

test("on a phone the menu is one row with the open section in view; on a desktop it runs down the side", async ({
  page,
}) => {
  await signInAdmin(page);
  const name = `Menú del evento ${Date.now()}`;
  const eventId = await publishEvent(page, name);
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/admin/eventos/${eventId}/personal`);
  await untilHydrated(page);
  const menu = page.getByRole("navigation", { name: "Gestionar el evento" });
  const open = menu.getByRole("link", { name: "Personal", exact: true });
  await expect(open).toBeInViewport();
  // One row: every pill on the same line, the menu no taller than one pill and its padding.
  const box = (await menu.boundingBox())!;
  expect(box.height).toBeLessThan(60);
  await expectNoAxeViolations(page);
  await shoot(page, "gestionar-personal");

  await page.setViewportSize({ width: 1280, height: 900 });
  const side = (await menu.boundingBox())!;
  const section = (await page.getByRole("region", { name: "Personal del evento" }).boundingBox())!;
  expect(side.x + side.width).toBeLessThanOrEqual(section.x);
  // Keyboard: the section links are reachable in order from the first.
  await menu.getByRole("link", { name: "Datos del evento" }).focus();
  await page.keyboard.press("Tab");
  await expect(menu.getByRole("link", { name: "Sesiones", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/eventos/${eventId}/sesiones$`));
  await expect(
    page.getByRole("heading", { level: 2, name: "Sesiones", exact: true }),
  ).toBeVisible();

  for (const [label, path] of SECTIONS) {
    await page.goto(`/admin/eventos/${eventId}${path}`);
    await untilHydrated(page);
    await expectNoAxeViolations(page);
    await shoot(page, `gestionar-${path.slice(1) || "datos"}`);
    await expect(menu.getByRole("link", { name: label, exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
  }
});
