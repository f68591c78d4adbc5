import fs from "node:fs";
import type { Locator } from "@playwright/test";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  freshEmail,
  memberData,
  signInOverHttp,
  test,
} from "./fixtures";

for (const screen of [
  { name: "teléfono", viewport: { width: 360, height: 800 } },
  { name: "escritorio", viewport: { width: 1280, height: 900 } },
]) {
  test(`a member downloads their data, then deletes the account after confirming (${screen.name})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(screen.viewport);
    const member = await createMember(page);
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Mis datos" })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("perfil.png"), fullPage: true });

    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Descargar mis datos" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^mis-datos-ayllu-\d{4}-\d{2}-\d{2}\.json$/);
    const body = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    expect(body.perfil).toMatchObject({
      email: member.email,
      nombreCompleto: member.nombreCompleto,
    });

    // Deleting does not look like downloading: it is drawn as the destructive action it is.
    const colour = (name: string) =>
      page.getByRole("link", { name }).evaluate((link) => getComputedStyle(link).color);
    expect(await colour("Eliminar mi cuenta")).not.toBe(await colour("Descargar mis datos"));

    // The confirmation is a modal dialog; Escape leaves everything as it was.
    await page.getByRole("link", { name: "Eliminar mi cuenta" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Eliminar mi cuenta" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("¿Estás seguro de que quieres eliminar tu cuenta?");
    // One way out, where focus starts (the safe choice), not two ('Cerrar' and 'Cancelar').
    await expect(dialog.getByRole("link", { name: "Cancelar" })).toBeFocused();
    await expect(dialog.getByRole("link", { name: "Cerrar" })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("confirmacion.png") });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/profile$/);

    await page.getByRole("link", { name: "Eliminar mi cuenta" }).click();
    await dialog.getByRole("button", { name: "Eliminar mi cuenta" }).click();
    await expect(page).toHaveURL(/\/$/);
    const alert = page.getByRole("alertdialog");
    await expect(alert).toContainText("Tu cuenta fue eliminada.");
    await alert.getByRole("button", { name: "OK" }).click();
    await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login/);
  });
}

test("'Cerrar sesión en todos los dispositivos' signs the member out here and in another browser, with JavaScript off too", async ({
  page,
  browser,
}) => {
  const member = await createMember(page);
  // The same member signed in on a second device.
  const other = await browser.newContext();
  await other.addCookies(await page.context().cookies());
  const otherPage = await other.newPage();
  await otherPage.goto("/profile");
  await expect(otherPage.getByRole("heading", { name: "Sesiones" })).toBeVisible();
  await expectNoAxeViolations(otherPage);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  await noScript.addCookies(await page.context().cookies());
  const plain = await noScript.newPage();
  await plain.goto("/profile");
  await expect(plain.getByRole("heading", { name: "Sesiones" })).toBeVisible();
  await plain.getByRole("button", { name: "Cerrar sesión en todos los dispositivos" }).click();
  await expect(plain).toHaveURL(/\/login$/);
  await expect(plain.getByRole("alertdialog")).toContainText(
    "Se cerró la sesión en todos tus dispositivos.",
  );

  for (const signedOut of [page, otherPage]) {
    await signedOut.goto("/profile");
    await expect(signedOut).toHaveURL(/\/login/);
  }
  expect(member.email).toBeTruthy();
  await other.close();
  await noScript.close();
});

/** Each rendered line of an element's text, from where its characters are drawn. */
function renderedLines(element: Locator): Promise<string[]> {
  return element.evaluate((paragraph) => {
    const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
    const rows: { top: number; text: string }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? "").length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        const row = rows.at(-1);
        if (row && Math.abs(row.top - top) < 4) row.text += node.textContent![i];
        else rows.push({ top, text: node.textContent![i]! });
      }
    }
    return rows.map((row) => row.text);
  });
}

/** A line starts at an '@', a dot or an underscore, or follows a hyphen: never inside a word. */
function expectBreaksBetweenWords(lines: string[], whole: string) {
  expect(lines.join("")).toBe(whole);
  expect(lines.length).toBeGreaterThan(1);
  lines.slice(1).forEach((line, i) => {
    expect(/^[@._]/.test(line) || lines[i]!.endsWith("-"), lines.join(" | ")).toBe(true);
  });
}

test("a long e-mail and user name under 'Mi perfil' break before an '@' or a dot at 360 px, never mid-word", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const email = freshEmail("maria.fernanda.quispe.mamani.comunidad");
  expect(await signInOverHttp(page, { email })).toBe("/aditionaldata");
  await completeProfileOverHttp(page, memberData());
  await page.goto("/profile");
  const address = page.locator(".profile-heading p");
  await expect(address).toHaveText(email);
  const lines = await renderedLines(address);
  await page.screenshot({ path: testInfo.outputPath("correo-largo.png") });
  expectBreaksBetweenWords(lines, email);

  // The user name, taken from the address, is as long and breaks the same way.
  const userName = page.locator(".detail").filter({ hasText: "Nombre de usuario" }).locator("dd");
  const name = email.split("@")[0]!;
  await expect(userName).toHaveText(name);
  expectBreaksBetweenWords(await renderedLines(userName), name);
  // And the address again where 'Correos' says where mail goes.
  const mailTo = page.locator(".profile-mail-address");
  await expect(mailTo).toHaveText(email);
  expectBreaksBetweenWords(await renderedLines(mailTo), email);
});
