// Signing in by an e-mailed link in a real browser, on `npm start`'s configuration (no SMTP: the
// 'Revisa tu correo' page shows the person their own link). The form works without JavaScript;
// another browser opening the link confirms first; a used link says so. axe on every page; the
// screens at 360 and 1280 px go to SHOTS_DIR when it is set.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import {
  completeProfileOverHttp,
  expect,
  expectNoAxeViolations,
  memberData,
  test,
} from "./fixtures";

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 780 : 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a person asks for a link on /login, follows it and completes their profile; another browser confirms first", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // A used link and a bad address are answered 400, which Chromium reports.
  consoleErrors.allow(/status of 400 \(Bad Request\)/);
  const email = `enlace-${Date.now()}@ayllu.test`;
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Iniciar Sesión con Google" })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "login");

  // A bad address: the field says so, focusable, nothing sent.
  const field = page.getByRole("textbox", { name: /Correo electrónico/ });
  await field.fill("sin-arroba");
  await page.getByRole("button", { name: "Recibir un enlace por correo" }).click();
  await expect(page.getByText("Escribe un correo electrónico válido")).toBeVisible();
  await expect(page.getByRole("textbox", { name: /Correo electrónico/ })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expectNoAxeViolations(page);

  await page.getByRole("textbox", { name: /Correo electrónico/ }).fill(email);
  await page.getByRole("button", { name: "Recibir un enlace por correo" }).click();
  await expect(page.getByRole("heading", { name: "Revisa tu correo" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "revisa-tu-correo");
  const link = await page
    .getByRole("link", { name: "Abrir el enlace de inicio de sesión" })
    .getAttribute("href");
  expect(link).toMatch(/\/login\/enlace\/[A-Za-z0-9_-]{43}$/);

  // Another browser: asked to confirm, nothing used by looking.
  const other = await browser.newContext({ baseURL });
  const elsewhere = await other.newPage();
  await elsewhere.goto(link!);
  await expect(
    elsewhere.getByRole("heading", { name: "¿Iniciar sesión en este dispositivo?" }),
  ).toBeVisible();
  await expect(elsewhere.getByText(email)).toBeVisible();
  await expectNoAxeViolations(elsewhere);
  await shoot(elsewhere, "otro-dispositivo");
  await other.close();

  // The browser that asked signs in with one click.
  await page.goto(link!);
  await expect(page).toHaveURL(/\/aditionaldata$/);
  await completeProfileOverHttp(page, memberData({ nombreCompleto: "Rosa Enlace" }));
  // The profile's mail section lists the transactional mail apart from the topics.
  await page.goto("/profile");
  const mail = page.locator("section", { has: page.locator("#mail-title") });
  await expect(mail).toContainText(email);
  await expect(mail.getByRole("heading", { name: "Correos de servicio" })).toBeVisible();
  await expect(
    mail.getByText("El enlace para iniciar sesión, cuando lo pides en Iniciar Sesión"),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  if (process.env.SHOTS_DIR) {
    await mail.scrollIntoViewIfNeeded();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width < 600 ? 780 : 900 });
      await mail.screenshot({
        path: path.join(process.env.SHOTS_DIR, `perfil-correos-${width}.png`),
      });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // Used up.
  const later = await browser.newContext({ baseURL });
  const again = await later.newPage();
  await again.goto(link!);
  await expect(again.getByRole("heading", { name: "No se pudo iniciar sesión" })).toBeVisible();
  await expect(again.getByText("Este enlace ya no sirve")).toBeVisible();
  await expectNoAxeViolations(again);
  await shoot(again, "enlace-usado");
  await later.close();
});

test("the link form works without JavaScript", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("textbox", { name: /Correo electrónico/ }).fill("sin-js@ayllu.test");
  await page.getByRole("button", { name: "Recibir un enlace por correo" }).click();
  await expect(page.getByRole("heading", { name: "Revisa tu correo" })).toBeVisible();
  await page.getByRole("link", { name: "Abrir el enlace de inicio de sesión" }).click();
  await expect(page).toHaveURL(/\/aditionaldata$/);
  await context.close();
});
