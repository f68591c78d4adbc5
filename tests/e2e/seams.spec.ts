// Where the admin screens meet the rest of the site: a failed save never shows an earlier
// success, the live lists never throw, and an alert never moves the page under the reader.
import type { Page } from "@playwright/test";
import { createMember, expect, signInAdmin, test } from "./fixtures";

const EVENTS_ADMIN = "admin-e2e@ayllu.test";
const CONTENT_ADMIN = "admin-contenido@ayllu.test";

/** The server answers a refused form with 400 or 500, which Chromium notes on the console. */
const REFUSED_FORM = /status of (400|500) \([^)]*\) \(http:\/\/localhost:\d+\/\w+\.data\)$/;

async function acknowledge(page: Page, message: string) {
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText(message);
  await alert.getByRole("button", { name: "OK" }).click();
  await expect(alert).toBeHidden();
}

test("a refused event after a published one shows the refusal, never the earlier success", async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(REFUSED_FORM);
  await signInAdmin(page, EVENTS_ADMIN, "Admin E2E");
  await page.goto("/admin");
  const form = page.locator("#evento-form");
  const fill = async (name: string, image: string) => {
    await form.getByLabel("Nombre del evento").fill(name);
    await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, Oruro");
    await form.locator("#evento-fechaEvento").fill("2031-05-04");
    await form.locator("#evento-horaEvento").fill("18:30");
    await form.getByLabel("Enlace de la imagen").fill(image);
    await form.getByLabel("Descripción").fill("Un encuentro para probar.");
  };
  const first = `Primero ${Date.now()}`;
  await fill(first, `${baseURL}/demo/vision.svg`);
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  await acknowledge(page, "Evento publicado con éxito!");

  const second = `Segundo ${Date.now()}`;
  await fill(second, "ftp://example.org/a.png");
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  await expect(form.getByLabel("Enlace de la imagen")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByText("Evento publicado con éxito!")).toHaveCount(0);
  await expect(page.getByRole("link", { name: second })).toHaveCount(0);
});

test("a Vimeo link in Resources after a published note shows the refusal, never the note's success", async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(REFUSED_FORM);
  await signInAdmin(page, CONTENT_ADMIN, "Carla Admin");
  await page.goto("/projectsandnotes");
  const notes = page.getByRole("region", { name: "Notas", exact: true });
  await notes.getByRole("textbox", { name: /^Título/ }).fill(`Nota ${Date.now()}`);
  await notes.getByRole("textbox", { name: /^Texto/ }).fill("Una nota para probar.");
  await notes.getByRole("button", { name: "Publicar Nota" }).click();
  await acknowledge(page, "Nota publicada con éxito!");

  const resources = page.getByRole("region", { name: "Recursos", exact: true });
  await resources.getByRole("textbox", { name: /^Título/ }).fill(`Recurso ${Date.now()}`);
  await resources
    .getByRole("textbox", { name: /^Texto/ })
    .fill("Un recurso con un video que no es de YouTube.");
  const video = resources.getByRole("textbox", { name: /Enlace de video de YouTube/ }).first();
  await video.fill("https://vimeo.com/123456");
  await resources.getByRole("button", { name: "Publicar Recurso" }).click();
  await expect(video).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByText("Nota publicada con éxito!")).toHaveCount(0);
});

test("the live lists reload many times without an uncaught error", async ({
  page,
  browser,
  baseURL,
}) => {
  // The page fixture fails the test on any uncaught error ("AbortError: signal is aborted…").
  await signInAdmin(page, CONTENT_ADMIN, "Carla Admin");
  await page.goto("/projectsandnotes");
  await expect(page.getByText("Las listas se actualizan en vivo")).toBeVisible();

  // Another admin publishes notes in quick succession while this page navigates within itself,
  // so reloads are overtaken by newer reloads and by navigations.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await signInAdmin(otherPage, "admin-contenido-2@ayllu.test", "Beto Admin");
  const origin = new URL(baseURL!).origin;
  const stamp = Date.now().toString(36);
  const replies = [];
  for (let i = 0; i < 24; i++) {
    replies.push(
      otherPage.request.post("/projectsandnotes", {
        form: {
          intent: "createNote",
          titulo: `Eco ${stamp} ${i}`,
          texto: "Texto.",
          enlaceImagen: "",
        },
        headers: { Origin: origin },
      }),
    );
    // In-page navigations and this admin's own saves while reloads are under way.
    if (i % 3 === 0) {
      await page.getByRole("link", { name: "Mostrar Proyectos" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
    } else if (i % 3 === 1) {
      await page.getByRole("dialog").getByRole("link", { name: "Cerrar" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    } else {
      const notes = page.getByRole("region", { name: "Notas", exact: true });
      await notes.getByRole("textbox", { name: /^Título/ }).fill(`Mía ${stamp} ${i}`);
      await notes.getByRole("textbox", { name: /^Texto/ }).fill("Texto.");
      await expect(notes.getByRole("textbox", { name: /^Título/ })).toHaveValue(
        `Mía ${stamp} ${i}`,
      );
      await notes.getByRole("button", { name: "Publicar Nota" }).click();
      await acknowledge(page, "Nota publicada con éxito!");
    }
    await page.waitForTimeout(40 + (i % 5) * 25);
  }
  for (const reply of await Promise.all(replies))
    expect(reply.ok(), `${reply.status()} ${reply.url()}`).toBe(true);
  await other.close();
  const notes = page.getByRole("region", { name: "Notas", exact: true });
  await notes.getByText("Mostrar Notas").click();
  await expect(notes.getByRole("link", { name: `Eco ${stamp} 23`, exact: true })).toBeVisible();
});

test("an alert does not move the page: a member sent away from /admin stays at the top of /inicio", async ({
  page,
}) => {
  await createMember(page);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/inicio$/);
  await expect(page.getByRole("alertdialog")).toContainText(
    "Acceso denegado. No eres un administrador.",
  );
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test("'Participar' does not move the page", async ({ page }) => {
  await createMember(page);
  await page.goto("/eventos");
  // An ordinary event, not the demo's competition (first while it runs).
  const card = page
    .locator("a[href^='/detalles/']")
    .filter({ hasNotText: "Torneo de robótica de ejemplo" })
    .first();
  await card.click();
  await expect(page).toHaveURL(/\/detalles\//);
  const join = page.getByRole("button", { name: "Participar", exact: true });
  await join.scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  await join.click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  expect(await page.evaluate(() => window.scrollY)).toBe(before);
});

test("an admin's own save reads the lists once, not again for its own live echo", async ({
  page,
}) => {
  await signInAdmin(page, CONTENT_ADMIN, "Carla Admin");
  await page.goto("/projectsandnotes");
  await expect(page.getByText("Las listas se actualizan en vivo")).toBeVisible();
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (
      request.method() === "GET" &&
      (url.pathname === "/projectsandnotes.data" || url.pathname === "/projectsandnotes/listas")
    )
      reads.push(url.pathname + url.search);
  });
  const notes = page.getByRole("region", { name: "Notas", exact: true });
  const title = `Propia ${Date.now()}`;
  await notes.getByRole("textbox", { name: /^Título/ }).fill(title);
  await notes.getByRole("textbox", { name: /^Texto/ }).fill("Una nota propia.");
  await notes.getByRole("button", { name: "Publicar Nota" }).click();
  await acknowledge(page, "Nota publicada con éxito!");
  await notes.getByText("Mostrar Notas").click();
  await expect(notes.getByRole("link", { name: title, exact: true })).toBeVisible();
  // Long enough for the echo to arrive and be weighed (the page waits 100 ms before reading).
  await page.waitForTimeout(1500);
  expect(reads, reads.join("\n")).toHaveLength(1);
});
