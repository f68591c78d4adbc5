// 'Diagnóstico' (/admin/diagnostico) in Chromium: reached from the admin's menu by keyboard, every
// line readable at a phone's width, no axe violation; without SMTP the test-mail button is off
// and says why.
import {
  completeProfileOverHttp,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
} from "./fixtures";

// The admin of site.spec.ts, under the same name (the menu is found by it).
const ADMIN = "admin-sitio@ayllu.test";

test("an admin opens Diagnóstico from the menu and reads every line, at 360 px too", async ({
  page,
}) => {
  if ((await signInOverHttp(page, { email: ADMIN, name: "Eva Admin" })) === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Eva Admin" }));
  await page.goto("/admin");
  const menu = page.getByRole("button", { name: /Eva Admin/ });
  await menu.focus();
  await page.keyboard.press("Enter");
  const item = page.getByRole("menuitem", { name: "Diagnóstico" });
  await expect(item).toBeVisible();
  await item.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Diagnóstico" })).toBeVisible();
  for (const title of [
    "Versión",
    "Dirección pública",
    "Tu conexión y el proxy",
    "Inicio de sesión",
    "Correo",
    "Almacenamiento",
    "Copias de seguridad",
    "Archivos que nombra la base de datos",
    "Base de datos",
    "Procesos",
  ])
    await expect(page.getByRole("region", { name: new RegExp(`^${title}`) })).toBeVisible();
  const mail = page.getByRole("region", { name: /^Correo/ });
  await expect(mail.getByRole("button", { name: "Enviar correo de prueba" })).toBeDisabled();
  await expect(mail.getByText("Hace falta SMTP_URL para enviarlo.")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 360, height: 780 });
  const widest = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(widest).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
});
