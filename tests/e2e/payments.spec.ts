// Issue 35, part A (decision 046), in Chromium: an admin opens 'Tesorería' from the menu by
// keyboard, uploads the bank's QR and saves the account's data (no axe violation, nothing wider
// than a phone at 360 px); an event published with a price shows it on its page.
import sharp from "sharp";
import {
  expect,
  expectNoAxeViolations,
  inLaPaz,
  shoot,
  signInAdmin,
  test,
  workerBaseUrl,
} from "./fixtures";

/** A QR-like picture: black and white modules. */
async function qrPicture(): Promise<Buffer> {
  const size = 232;
  const pixels = Buffer.alloc(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      pixels[y * size + x] = (Math.floor(x / 8) * 7 + Math.floor(y / 8) * 13) % 3 === 0 ? 0 : 255;
  return sharp(pixels, { raw: { width: size, height: size, channels: 1 } })
    .png()
    .toBuffer();
}

test("an admin sets up the site's way to be paid at Tesorería: the bank's QR and the account", async ({
  page,
}) => {
  await signInAdmin(page);
  await page.goto("/inicio");
  const menu = page.getByRole("button", { name: /Admin E2E/ });
  await menu.focus();
  await page.keyboard.press("Enter");
  const item = page.getByRole("menuitem", { name: "Tesorería" });
  await item.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: "Tesorería" })).toBeVisible();
  await expect(page.getByText("Todavía no hay un QR")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel("Subir el QR").setInputFiles({
    name: "qr-banco.png",
    mimeType: "image/png",
    buffer: await qrPicture(),
  });
  await page.getByRole("button", { name: "Subir QR" }).click();
  await expect(
    page.getByRole("alertdialog").filter({ hasText: "QR del banco guardado." }),
  ).toBeVisible();
  await page.getByRole("button", { name: "OK" }).click();
  const qr = page.getByRole("img", { name: "QR del banco para pagar a la comunidad" });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(232);

  await page.getByLabel("Titular de la cuenta").fill("Asociación Ayllu");
  await page.getByRole("textbox", { name: "Banco" }).fill("Banco Unión");
  await page
    .getByLabel("Instrucciones para pagar")
    .fill("Escanea el QR desde la app de tu banco y escribe tu código en la glosa.");
  const soon = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("El QR vence el (opcional)").fill(soon);
  await page.getByRole("button", { name: "Guardar datos de pago" }).click();
  await expect(
    page.getByRole("alertdialog").filter({ hasText: "Datos de pago guardados." }),
  ).toBeVisible();
  await page.getByRole("button", { name: "OK" }).click();
  await expect(page.getByLabel("Titular de la cuenta")).toHaveValue("Asociación Ayllu");
  await expect(page.getByText(/El QR vence el .* \(en menos de 30 días\)/)).toBeVisible();
  await expectNoAxeViolations(page);

  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
  await shoot(page, "tesoreria");
});

test("an event published with a price shows it on its page", async ({ page }) => {
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const starts = inLaPaz(new Date(Date.now() + 7 * 86_400_000));
  const name = `Curso con precio ${Date.now()}`;
  await page.goto("/admin");
  const form = page.locator("#evento-form");
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, La Paz");
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill(starts.fecha);
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill(starts.hora);
  await form.getByLabel("Precio (Bs, opcional)").fill("30,50");
  await form.getByLabel("Enlace de la imagen").fill(`${origin}/demo/vision.svg`);
  await form.getByLabel("Descripción").fill("Un curso de robótica.");
  await expectNoAxeViolations(page);
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  const alert = page.getByRole("alertdialog").filter({ hasText: "Evento publicado con éxito!" });
  await expect(alert).toBeVisible();
  await alert.getByRole("button", { name: "OK" }).click();
  await page
    .getByRole("region", { name: "Eventos Publicados" })
    .getByRole("link", { name, exact: true })
    .click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Bs 30,50")).toBeVisible();
  await expectNoAxeViolations(page);
});
