// Photos through the real forms (issue 14): an admin publishes an event with an uploaded image
// and uploads two gallery photos at once; a visitor sees them on the event page, in the widths
// the upload made. axe on the forms and the page.
import sharp from "sharp";
import {
  completeProfileOverHttp,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

/** A photo as a phone would give it: a JPEG with noise, `width` pixels wide. */
async function photo(width: number, height: number, seed: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + seed * 53 + (i % width)) % 256;
  const buffer = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { name: `foto-${seed}.jpg`, mimeType: "image/jpeg", buffer };
}

test("an admin uploads an event's image and two gallery photos; a visitor sees them in several widths", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Feria de fotos ${Date.now()}`;
  if ((await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" })) === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  await page.goto("/admin");

  const form = page.locator("#evento-form");
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, El Alto");
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2036-05-10");
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill("10:00");
  await form.getByLabel("Descripción").fill("Fotos de la comunidad.");
  await form.getByLabel("Subir imagen").setInputFiles(await photo(1600, 900, 1));
  await expect(form.getByRole("status")).toHaveText("Imagen subida.");
  await expect(form.getByLabel("Enlace de la imagen")).toHaveValue(
    /^\/imagenes\/[0-9a-f]{32}-1280\.webp$/,
  );
  await expectNoAxeViolations(page);
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  const published = page.getByRole("alertdialog").filter({ hasText: "Evento publicado" });
  await published.getByRole("button", { name: "OK" }).click();

  const row = page
    .getByRole("region", { name: "Eventos Publicados" })
    .getByRole("listitem")
    .filter({ hasText: name });
  await row.locator("summary").click();
  await row.getByRole("link", { name: `Galería de ${name}` }).click();
  const gallery = page.getByRole("dialog", { name: `Galería de Imágenes para: ${name}` });
  await gallery
    .getByLabel("Subir imágenes")
    .setInputFiles([await photo(800, 600, 2), await photo(500, 500, 3)]);
  await expect(gallery.getByRole("status")).toHaveText("2 imágenes subidas.");
  await expect(gallery.getByRole("textbox", { name: /URL de la imagen/ })).toHaveCount(3);
  await expectNoAxeViolations(page);
  await gallery.getByRole("button", { name: "Agregar Imagen" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Imagen agregada a la galería!");

  // A visitor, in a browser of their own.
  const context = await browser.newContext({ baseURL });
  const visitor = await context.newPage();
  await visitor.goto("/eventos");
  await visitor.getByRole("link", { name }).first().click();
  const cover = visitor.getByRole("img", { name: `Imagen del evento ${name}` });
  await expect(cover).toHaveAttribute(
    "srcset",
    /-320\.webp 320w, .*-640\.webp 640w, .*-1280\.webp 1280w$/,
  );
  const photos = visitor.getByRole("img", { name: /de la galería de/ });
  await expect(photos).toHaveCount(2);
  await expect(photos.nth(1)).toHaveAttribute("srcset", /-320\.webp 320w, .*-500\.webp 500w$/);
  for (const image of [cover, photos.nth(0), photos.nth(1)]) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
  await expectNoAxeViolations(visitor);
  await context.close();
});
