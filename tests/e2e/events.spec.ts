// The events journey in a real browser: an admin publishes a Hibrido event with two links and an
// image and manages its gallery; a member joins it, finds it in the profile, leaves it; the admin
// deletes it and it is gone from the member's profile. axe on every page.
import type { Page } from "@playwright/test";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  fillProfileFields,
  memberData,
  signInOverHttp,
  signInWithDevProvider,
  test,
  okAlert,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

async function signOut(page: Page, name: string) {
  await page.getByRole("button", { name }).click();
  await page.getByRole("menuitem", { name: "Cerrar Sesión" }).click();
  await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
}

/**
 * Signs the admin in with the pages' own requests (this file is not about signing in). Another
 * file may have signed this admin in on the same server before: the additional data is only
 * asked for the first time.
 */
async function signInAdmin(page: Page) {
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  await page.goto("/");
  await page.getByRole("button", { name: "Admin E2E" }).click();
  await page.getByRole("menuitem", { name: "Administrar y Publicar" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Panel de Administración" }),
  ).toBeVisible();
}

test("an admin publishes a Hibrido event with a gallery; a member joins and leaves it; the admin deletes it", async ({
  page,
  baseURL,
}) => {
  const name = `Noche de robots ${Date.now()}`;
  const image = `${baseURL}/demo/vision.svg`;

  // ——— The admin publishes ———
  await signInAdmin(page);
  await expect(page.getByText("ADMIN", { exact: true }).first()).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.locator("#evento-form");
  await expect(form.getByLabel("Tipo de evento")).toHaveValue("Presencial");
  await expect(form.getByRole("group", { name: /Enlaces del evento/ })).toBeHidden();
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, La Paz");
  await form.getByLabel("Ubicación específica (opcional)").fill("Obrajes C2");
  await form.getByLabel("Tipo de evento").selectOption("Hibrido");
  const links = form.getByRole("group", { name: /Enlaces del evento/ });
  await expect(links).toBeVisible();
  await expect(links.getByRole("button", { name: /Quitar/ })).toHaveCount(0);
  await links
    .getByRole("textbox", { name: "Enlace 1", exact: true })
    .fill("https://meet.example.com/robots");
  await links.getByRole("button", { name: "+ Añadir otro enlace" }).click();
  await links
    .getByRole("textbox", { name: "Enlace 2", exact: true })
    .fill("  https://youtube.com/live/robots  ");
  await links.getByRole("button", { name: "+ Añadir otro enlace" }).click();
  await expect(links.getByRole("button", { name: /Quitar/ })).toHaveCount(3);
  await links.getByRole("button", { name: "Quitar enlace 3" }).click();
  await expect(links.getByRole("textbox")).toHaveCount(2);
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2035-08-15");
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill("18:30");
  await form.getByLabel("Enlace de la imagen").fill(image);
  await form.getByLabel("Descripción").fill("Competencia abierta.\nTrae tu robot.");
  await expectNoAxeViolations(page);
  // Enter in a field publishes (it does not add a link row).
  await form.getByLabel("Enlace de la imagen").press("Enter");
  await okAlert(page, "Evento publicado con éxito!");

  const published = page
    .getByRole("region", { name: "Eventos Publicados" })
    .getByRole("listitem")
    .filter({ hasText: name });
  await expect(published).toContainText("Bolivia, La Paz");
  await expect(published).toContainText("15 de agosto de 2035");

  // ——— Its gallery: two images in, one out ———
  // The row's other actions are in its menu, behind 'Más'.
  await published.locator("summary").click();
  await published.getByRole("link", { name: `Galería de ${name}` }).click();
  const gallery = page.getByRole("dialog", { name: `Galería de Imágenes para: ${name}` });
  await expect(gallery).toBeVisible();
  await expect(gallery).toContainText("No hay imágenes en la galería para este evento.");
  await expectNoAxeViolations(page);
  for (const file of ["taller-arduino.svg", "encuentro.svg"]) {
    await gallery.getByLabel("URL de la imagen").fill(`${baseURL}/demo/${file}`);
    await gallery.getByRole("button", { name: "Agregar Imagen" }).click();
    await okAlert(page, "Imagen agregada a la galería!");
  }
  await expect(gallery.locator("li img")).toHaveCount(2);
  await gallery.getByRole("link", { name: "Eliminar imagen 1" }).click();
  await expect(gallery).toContainText("¿Eliminar esta imagen de la galería?");
  await expectNoAxeViolations(page);
  await gallery.getByRole("button", { name: "Eliminar", exact: true }).click();
  await okAlert(page, "Imagen eliminada de la galería!");
  await expect(gallery.locator("li img")).toHaveCount(1);
  await expect(gallery.getByRole("link", { name: /encuentro\.svg/ })).toBeVisible();
  await gallery.getByRole("link", { name: "Cerrar" }).click();
  await expect(gallery).toBeHidden();
  await signOut(page, "Admin E2E");

  // ——— A member finds it, joins, sees it in the profile, leaves ———
  const member = await createMember(page);
  await page.goto("/eventos");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(`${name} — Ayllu`);
  const meet = page.getByRole("link", { name: /meet\.example\.com\/robots/ });
  await expect(meet).toHaveAttribute("target", "_blank");
  await expect(meet).toHaveAttribute("rel", "noopener noreferrer");
  await expect(page.getByRole("link", { name: /youtube\.com\/live\/robots/ })).toHaveAttribute(
    "href",
    "https://youtube.com/live/robots",
  );
  await expect(page.getByRole("region", { name: "Galería" }).getByRole("img")).toHaveCount(1);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Participar", exact: true }).click();
  await okAlert(page, "¡Te has registrado para participar en este evento!");
  await expect(page.getByRole("button", { name: "Dejar de Participar" })).toBeVisible();

  await page.goto("/profile");
  const entry = page
    .getByRole("region", { name: "Eventos Participando" })
    .getByRole("listitem")
    .filter({ hasText: name });
  await expect(entry).toBeVisible();
  await entry.getByRole("link", { name: `Ver Detalles de ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByRole("button", { name: "Dejar de Participar" }).click();
  await okAlert(page, "Has dejado de participar en este evento.");
  await expect(page.getByRole("button", { name: "Participar", exact: true })).toBeVisible();
  // Joined again, so that the admin's deletion has something to take away.
  await page.getByRole("button", { name: "Participar", exact: true }).click();
  await okAlert(page, "¡Te has registrado para participar en este evento!");
  await signOut(page, member.nombreCompleto);

  // ——— The admin deletes it, after confirming ———
  await signInAdmin(page);
  const row = page
    .getByRole("region", { name: "Eventos Publicados" })
    .getByRole("listitem")
    .filter({ hasText: name });
  await row.locator("summary").click();
  await row.getByRole("link", { name: `Eliminar ${name}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Eliminar evento" });
  await expect(confirm).toContainText("¿Estás seguro de que quieres eliminar este evento?");
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Eliminar", exact: true }).click();
  await okAlert(page, "Evento eliminado con éxito!");
  await expect(page.getByRole("region", { name: "Eventos Publicados" })).not.toContainText(name);
  await signOut(page, "Admin E2E");

  // ——— Gone from the member's profile ———
  await signInOverHttp(page, { email: member.email });
  await page.goto("/profile");
  await expect(page.getByRole("region", { name: "Eventos Participando" })).not.toContainText(name);
  await expectNoAxeViolations(page);
});

test("a visitor sees 'Inicia Sesión para Participar' and comes back to the event after signing in; an unknown event is a 404", async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 404 \(Not Found\)/);
  const member = await createMember(page);
  await signOut(page, member.nombreCompleto);
  await page.goto("/eventos");
  // An ordinary event: the demo's competition (first while it runs) says 'asistir como público'.
  await page
    .getByRole("region", { name: "Próximos eventos" })
    .getByRole("link")
    .filter({ hasNotText: "Torneo de robótica de ejemplo" })
    .first()
    .click();
  await page.waitForURL(/\/detalles\//);
  const eventUrl = page.url();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Inicia Sesión para Participar" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdetalles%2F/);
  await signInWithDevProvider(page, { email: member.email });
  await expect(page).toHaveURL(eventUrl);
  await expect(page.getByRole("button", { name: "Participar", exact: true })).toBeVisible();

  const missing = await page.goto("/detalles/00000000-0000-4000-8000-000000000000");
  expect(missing?.status()).toBe(404);
  await expect(
    page.getByRole("heading", { level: 1, name: "Evento no encontrado." }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });
  // axe runs as a script in the page, so it cannot run here; the same screens are checked with
  // JavaScript on above.

  test("an admin publishes a Virtual event, adding a link row through the server, and deletes it after the confirmation step", async ({
    page,
    consoleErrors,
  }) => {
    // A refused form is answered 400, which Chromium notes on the console.
    consoleErrors.allow(/status of 400/);
    // The admin of this run may or may not have completed the profile yet (test order).
    await signInWithDevProvider(page, { email: ADMIN, name: "Admin E2E" });
    if (new URL(page.url()).pathname === "/aditionaldata") {
      await fillProfileFields(page, memberData({ nombreCompleto: "Admin E2E" }));
      await page.getByRole("button", { name: "Guardar", exact: true }).click();
      await expect(page.getByRole("alertdialog")).toContainText(
        "Datos adicionales guardados con éxito!",
      );
    }
    await page.goto("/admin");
    await expect(
      page.getByRole("heading", { level: 1, name: "Panel de Administración" }),
    ).toBeVisible();
    const name = `Sin JavaScript ${Date.now()}`;
    const form = page.locator("#evento-form");
    await form.getByLabel("Nombre del evento").fill(name);
    await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, Sucre");
    await form.getByLabel("Tipo de evento").selectOption("Virtual");
    // The link rows are always there without JavaScript; the server decides whether they apply.
    await form
      .getByRole("textbox", { name: "Enlace 1", exact: true })
      .fill("https://meet.example.com/sin-js");
    await form.getByRole("button", { name: "+ Añadir otro enlace" }).click();
    await expect(form.getByRole("textbox", { name: "Enlace 2", exact: true })).toBeVisible();
    await expect(form.getByRole("textbox", { name: "Enlace 1", exact: true })).toHaveValue(
      "https://meet.example.com/sin-js",
    );
    await expect(form.getByLabel("Nombre del evento")).toHaveValue(name);
    await form.getByRole("textbox", { name: "Enlace 2", exact: true }).fill("javascript:alert(1)");
    await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2036-01-20");
    // The hour is left empty.
    await form.getByLabel("Enlace de la imagen").fill("https://example.com/x.png");
    await form.getByLabel("Descripción").fill("Solo en línea.");
    await form.getByRole("button", { name: "Publicar Evento" }).click();
    await expect(
      form.getByText("Cada enlace debe ser una URL válida que empiece con http:// o https://."),
    ).toBeVisible();
    await expect(form.getByText("Escribe la hora del evento.")).toBeVisible();
    await form.getByRole("textbox", { name: "Enlace 2", exact: true }).fill("");
    await form.getByRole("button", { name: "Publicar Evento" }).click();
    await expect(form.getByText("Escribe la hora del evento.")).toBeVisible();
    await form.getByRole("textbox", { name: "Hora", exact: true }).fill("20:00");
    await form.getByRole("button", { name: "Publicar Evento" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Evento publicado con éxito!");

    const row = page
      .getByRole("region", { name: "Eventos Publicados" })
      .getByRole("listitem")
      .filter({ hasText: name });
    await row.locator("summary").click();
    await row.getByRole("link", { name: `Eliminar ${name}` }).click();
    await expect(
      page.getByText("¿Estás seguro de que quieres eliminar este evento?"),
    ).toBeVisible();
    await page.getByRole("button", { name: "Eliminar", exact: true }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Evento eliminado con éxito!");
    await expect(page.getByRole("region", { name: "Eventos Publicados" })).not.toContainText(name);
  });
});

test("an event whose picture fails to load shows the branded placeholder on its card and its page, never a broken image", async ({
  page,
  baseURL,
}) => {
  // An address that answers, but not with a picture: the browser cannot show it (and, unlike a
  // 404, logs nothing, so the other journeys that list this event stay free of console errors).
  const name = `Imagen rota ${Date.now()}`;
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  await page.goto("/admin");
  const form = page.locator("#evento-form");
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, Oruro");
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2036-03-10");
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill("10:00");
  await form.getByLabel("Enlace de la imagen").fill(`${baseURL}/robots.txt`);
  await form.getByLabel("Descripción").fill("Una imagen que no existe.");
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  await okAlert(page, "Evento publicado con éxito!");

  const noBrokenImages = () =>
    page.evaluate(() =>
      Array.from(document.images)
        .filter((image) => image.complete && image.naturalWidth === 0)
        .map((image) => image.src),
    );
  await page.goto("/eventos");
  const card = page.locator(".item-card").filter({ hasText: name });
  await expect(card.locator(".image-placeholder")).toContainText("Evento");
  await expect(card.locator("img.item-card-media")).toHaveCount(0);
  expect(await noBrokenImages()).toEqual([]);

  await card.getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const placeholder = page.getByRole("img", { name: `Imagen del evento ${name}` });
  await expect(placeholder).toHaveClass(/image-placeholder/);
  // The logo stands in the middle of the picture's frame, with the kind under it — not stuck to
  // the left edge with 'EVENTO' beside it.
  const centred = async (frame: typeof placeholder) => {
    const box = (await frame.boundingBox())!;
    const logo = (await frame.locator("img").boundingBox())!;
    const label = (await frame.locator("span").boundingBox())!;
    expect(Math.abs(logo.x + logo.width / 2 - (box.x + box.width / 2))).toBeLessThan(2);
    expect(label.y).toBeGreaterThanOrEqual(logo.y + logo.height);
  };
  await centred(placeholder);
  expect(await noBrokenImages()).toEqual([]);
  await expectNoAxeViolations(page);

  // A gallery photo that does not load: the placeholder, not the broken-image icon and its alt.
  const publishedRow = () =>
    page
      .getByRole("region", { name: "Eventos Publicados" })
      .getByRole("listitem")
      .filter({ hasText: name });
  await page.goto("/admin");
  await publishedRow().locator("summary").click();
  await publishedRow()
    .getByRole("link", { name: `Galería de ${name}` })
    .click();
  const gallery = page.getByRole("dialog", { name: `Galería de Imágenes para: ${name}` });
  await gallery.getByLabel("URL de la imagen").fill(`${baseURL}/robots.txt`);
  await gallery.getByRole("button", { name: "Agregar Imagen" }).click();
  await okAlert(page, "Imagen agregada a la galería!");
  await page.goto("/eventos");
  await page.locator(".item-card").filter({ hasText: name }).getByRole("link", { name }).click();
  const missing = page
    .getByRole("region", { name: "Galería" })
    .getByRole("img", { name: `Imagen 1 de la galería de ${name} (no disponible)` });
  await expect(missing).toContainText("Foto no disponible");
  await centred(missing);
  expect(await noBrokenImages()).toEqual([]);
  await expectNoAxeViolations(page);

  // Leave no event behind for the other journeys.
  await page.goto("/admin");
  await publishedRow().locator("summary").click();
  await publishedRow()
    .getByRole("link", { name: `Eliminar ${name}` })
    .click();
  await page
    .getByRole("alertdialog", { name: "Eliminar evento" })
    .getByRole("button", { name: "Eliminar", exact: true })
    .click();
  await okAlert(page, "Evento eliminado con éxito!");
});
