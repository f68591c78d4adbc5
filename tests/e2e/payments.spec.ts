// Issue 35 (decision 048), in Chromium: an admin opens 'Tesorería' from the menu by keyboard,
// uploads the bank's QR and saves the account's data; an event published with a price shows it
// on its page; a member joins a paid event, reaches the payment page from the event page and
// sends a receipt — and, without JavaScript, the transaction number. No axe violation, nothing
// wider than a phone at 360 px.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  inLaPaz,
  okAlert,
  shoot,
  signInAdmin,
  test,
  untilHydrated,
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
  await expect
    .poll(() => qr.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(232);

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

/** Publishes a paid event of `capacity` places over HTTP as the signed-in admin; its id. */
async function publishPaid(page: Page, name: string): Promise<string> {
  const origin = new URL(workerBaseUrl()).origin;
  const starts = inLaPaz(new Date(Date.now() + 10 * 86_400_000));
  const reply = await page.request.post("/admin", {
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
      descripcion: "Curso de robótica de cuatro sesiones.",
    },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  const panel = await (
    await page.request.get(`/admin?buscarEvento=${encodeURIComponent(name)}`)
  ).text();
  const link = new RegExp(`<a[^>]*aria-label="Participantes de ${name}"[^>]*>`).exec(panel)?.[0];
  return /href="\/admin\/eventos\/([0-9a-f-]{36})\/participantes"/.exec(link ?? "")![1]!;
}

test("a member joins a paid event, reaches the payment page from the event page and sends the receipt", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const qr = await page.request.post("/tesoreria", {
    headers: { Origin: origin },
    multipart: { imagen: { name: "qr.png", mimeType: "image/png", buffer: await qrPicture() } },
  });
  expect(qr.ok()).toBe(true);
  await page.request.post("/tesoreria", {
    headers: { Origin: origin },
    form: {
      intent: "method",
      accountHolder: "Asociación Ayllu",
      bank: "Banco Unión",
      instructions: "Escanea el QR desde la app de tu banco. Escribe tu código en la glosa.",
      qrExpiresOn: "",
    },
  });
  const name = `Curso pagado ${Date.now()}`;
  const eventId = await publishPaid(page, name);
  await page.context().clearCookies();

  await createMember(page);
  await page.goto(`/detalles/${eventId}`);
  await page.getByRole("button", { name: "Participar" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("Tu plaza está reservada: Pendiente de pago.")).toBeVisible();
  await page.getByRole("link", { name: "Pagar mi inscripción" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Pago de tu inscripción" }),
  ).toBeVisible();
  await expect(page.getByText("Bs 30", { exact: true })).toBeVisible();
  const qrImage = page.getByRole("img", { name: "QR de la cuenta de la comunidad para pagar" });
  await expect(qrImage).toBeVisible();
  await expect
    .poll(() => qrImage.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(232);
  await expectNoAxeViolations(page);

  // The page's weight on a phone: every byte the browser fetched to show it at 360 px.
  const phone = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 780 },
    storageState: await page.context().storageState(),
  });
  const phonePage = await phone.newPage();
  const sizes: { url: string; bytes: number }[] = [];
  phonePage.on("requestfinished", (request) => {
    void request
      .sizes()
      .then((s) =>
        sizes.push({ url: request.url(), bytes: s.responseBodySize + s.responseHeadersSize }),
      );
  });
  await phonePage.goto(`/detalles/${eventId}/pago`, { waitUntil: "networkidle" });
  expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    360,
  );
  await expectNoAxeViolations(phonePage);
  const total = sizes.reduce((n, s) => n + s.bytes, 0);
  if (process.env.SHOTS_DIR)
    fs.writeFileSync(
      `${process.env.SHOTS_DIR}/pago-bytes-360.json`,
      JSON.stringify({ total, requests: sizes.length, sizes }, null, 2),
    );
  await phone.close();
  await shoot(page, "pago");

  // The bank's PDF, printed by Chromium (decision 061: kept as a picture of its page).
  await page.getByLabel("Foto o PDF del comprobante").setInputFiles({
    name: "comprobante.pdf",
    mimeType: "application/pdf",
    buffer: fs.readFileSync(
      path.join(import.meta.dirname, "../fixtures/receipts/benign-chromium.pdf"),
    ),
  });
  await page.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(
    page.getByRole("alertdialog").filter({ hasText: "Recibimos tu pago" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("Recibimos tu pago. Tesorería lo revisará")).toBeVisible();
  await expect(
    page.getByRole("link", { name: "Descargar el comprobante que enviaste" }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The treasurer's queue (an admin may do what a treasurer does): the receipt's page beside it,
  // as a picture, and the whole of it at 'Ver en grande'.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page.goto("/tesoreria/pagos");
  await expect(page.getByRole("heading", { level: 1, name: "Pagos" })).toBeVisible();
  const item = page.getByRole("listitem").filter({ hasText: name });
  const receipt = item.getByRole("img", { name: /^Comprobante de / });
  await receipt.scrollIntoViewIfNeeded();
  await expect
    .poll(() => receipt.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(1240);
  const full = await page.request.get(
    (await item.getByRole("link", { name: "Ver en grande" }).getAttribute("href"))!,
  );
  expect(full.headers()["content-type"]).toBe("image/jpeg");
  expect(full.headers()["content-security-policy"]).toBe(
    "default-src 'none'; sandbox; frame-ancestors 'none'",
  );
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
  await shoot(page, "tesoreria-pagos", item);
  await item.getByRole("button", { name: "Confirmar" }).click();
  await expect(page.getByRole("alertdialog").filter({ hasText: "Pago confirmado." })).toBeVisible();
});

test("without JavaScript, a member sends the transaction number from the payment page", async ({
  browser,
  baseURL,
  page,
}) => {
  await signInAdmin(page);
  const eventId = await publishPaid(page, `Curso sin JS ${Date.now()}`);
  await page.context().clearCookies();
  await createMember(page);
  const origin = new URL(workerBaseUrl()).origin;
  await page.request.post(`/detalles/${eventId}`, {
    headers: { Origin: origin },
    form: { intent: "join" },
  });
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL,
    storageState: await page.context().storageState(),
  });
  const noScript = await context.newPage();
  await noScript.goto(`/detalles/${eventId}/pago`);
  // Without scripts the browser's own file control shows, in the same form as the number.
  await expect(noScript.getByRole("button", { name: "Elegir archivo" })).toHaveCount(0);
  await expect(noScript.locator('input[type="file"][name="comprobante"]')).toBeVisible();
  await noScript.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(
    noScript.getByText(
      "Elige la foto o el PDF del comprobante, o escribe el número de transacción.",
    ),
  ).toBeVisible();
  await noScript.getByLabel("O el número de transacción").fill("TRX-000123");
  await noScript.getByRole("button", { name: "Enviar comprobante" }).click();
  await expect(noScript.getByText("Número de transacción enviado: TRX-000123")).toBeVisible();
  await expect(noScript.getByText("Recibimos tu pago. Tesorería lo revisará")).toBeVisible();
  await context.close();
});

test("the payment form: 'Elegir archivo' in Spanish, reached by keyboard, shows the chosen file's name and a picture's preview; one button sends the receipt and the number together", async ({
  page,
}) => {
  await signInAdmin(page);
  const eventId = await publishPaid(page, `Curso un botón ${Date.now()}`);
  await page.context().clearCookies();
  await createMember(page);
  const origin = new URL(workerBaseUrl()).origin;
  await page.request.post(`/detalles/${eventId}`, {
    headers: { Origin: origin },
    form: { intent: "join" },
  });
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/detalles/${eventId}/pago`);
  await untilHydrated(page);
  const form = page.locator("form").filter({ has: page.locator('input[name="comprobante"]') });
  // One form, one button: no second form for the number.
  await expect(form.locator('button[type="submit"], input[type="submit"]')).toHaveText([
    "Enviar comprobante",
  ]);
  await expect(page.getByRole("button", { name: "Enviar número" })).toHaveCount(0);
  await expect(form.getByLabel("O el número de transacción")).toBeVisible();

  const button = form.locator("label.file-field-button");
  await expect(button).toHaveText("Elegir archivo");
  await expect(form.getByText("Ningún archivo elegido")).toBeVisible();
  const box = (await button.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(24);
  expect(box.width).toBeGreaterThanOrEqual(24);

  // By keyboard: Tab reaches the hidden input, its focus rings the button, Space opens the chooser.
  const input = page.getByLabel("Foto o PDF del comprobante");
  await input.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(input).toBeFocused();
  expect(await button.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Space");
  await (
    await chooser
  ).setFiles({
    name: "captura-banco.png",
    mimeType: "image/png",
    buffer: await qrPicture(),
  });
  await expect(form.getByText("captura-banco.png")).toBeVisible();
  const preview = form.getByRole("img", { name: "Vista previa de captura-banco.png" });
  await expect(preview).toBeVisible();
  expect(await preview.getAttribute("src")).toMatch(/^blob:/);
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
    .toBe(232);
  await expectNoAxeViolations(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // 'Quitar' lets the choice go; a PDF shows its name and no preview.
  await form.getByRole("button", { name: "Quitar el archivo elegido" }).click();
  await expect(form.getByText("Ningún archivo elegido")).toBeVisible();
  await expect(preview).toHaveCount(0);
  await input.setInputFiles({
    name: "comprobante.pdf",
    mimeType: "application/pdf",
    buffer: fs.readFileSync(
      path.join(import.meta.dirname, "../fixtures/receipts/benign-chromium.pdf"),
    ),
  });
  await expect(form.getByText("comprobante.pdf")).toBeVisible();
  await expect(form.getByRole("img")).toHaveCount(0);

  await form.getByLabel("O el número de transacción").fill("TRX-55 0001");
  await form.getByRole("button", { name: "Enviar comprobante" }).click();
  await okAlert(page, /Recibimos tu pago/);
  await expect(page.getByText("Número de transacción enviado: TRX-55 0001")).toBeVisible();
  await expect(
    page.getByRole("link", { name: "Descargar el comprobante que enviaste" }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});
