// Content in a real browser (§2 Content admin page, §4, §7, §8): an admin publishes a note, a
// resource with two videos and a project, edits and cancels, deletes the note; a second admin's
// page follows along live; a visitor reads what was published.
import type { Browser, Page } from "@playwright/test";
import { createMember, expect, expectNoAxeViolations, signInAdmin, test } from "./fixtures";

const ADMIN = "admin-contenido@ayllu.test";
const ADMIN_2 = "admin-contenido-2@ayllu.test";

/** Offline, YouTube's thumbnails and player cannot load; Chromium reports that on the console. */
const YOUTUBE_OFFLINE =
  /Failed to load resource: net::ERR_\w+ \(https:\/\/(i\.ytimg\.com|www\.youtube-nocookie\.com)\//;

/** Content admins in this file are not testing sign-in: the pages' own requests, over HTTP. */
async function acknowledge(page: Page, message: string) {
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText(message);
  await expect(alert.getByRole("button", { name: "OK" })).toBeFocused();
  await alert.getByRole("button", { name: "OK" }).click();
  await expect(alert).toBeHidden();
}

function section(page: Page, name: string) {
  return page.getByRole("region", { name, exact: true });
}

async function newPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({
    baseURL,
    locale: "es-BO",
    timezoneId: "America/La_Paz",
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !YOUTUBE_OFFLINE.test(`${m.text()} (${m.location().url}`))
      errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, errors, close: () => context.close() };
}

test("admins publish, edit and delete content, a second admin sees it live, a visitor reads it", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(YOUTUBE_OFFLINE);
  // The server answers a form with mistakes with 400, which Chromium notes on the console.
  consoleErrors.allow(
    /status of 400 \(Bad Request\) \(http:\/\/localhost:\d+\/projectsandnotes\.data\)$/,
  );
  const stamp = Date.now().toString(36);
  const noteTitle = `Inscripciones abiertas ${stamp}`;
  const resourceTitle = `Guía de Micromouse ${stamp}`;
  const projectTitle = `Robot sumo ${stamp}`;

  // The second admin keeps /projectsandnotes open in another browser.
  const watcher = await newPage(browser, baseURL);
  await signInAdmin(watcher.page, ADMIN_2, "Beto Admin");
  await watcher.page.goto("/projectsandnotes");
  await expect(watcher.page.getByText("Las listas se actualizan en vivo")).toBeVisible();
  const watcherNotes = section(watcher.page, "Notas");
  await watcherNotes.getByText("Mostrar Notas").click();
  await section(watcher.page, "Recursos").getByText("Mostrar Recursos").click();

  await signInAdmin(page, ADMIN, "Ana Admin");
  await page.goto("/projectsandnotes");
  await expect(
    page.getByRole("heading", { level: 1, name: "Panel de Administración" }),
  ).toBeVisible();
  await expect(page.getByText("Las listas se actualizan en vivo")).toBeVisible();
  await expectNoAxeViolations(page);

  // A note with a missing text: the message next to the field, focus on it.
  const notas = section(page, "Notas");
  await notas.getByRole("textbox", { name: "Título", exact: true }).fill(noteTitle);
  await notas.getByRole("button", { name: "Publicar Nota" }).click();
  const texto = notas.getByRole("textbox", { name: "Texto", exact: true });
  await expect(notas.getByText("Escribe el texto de la nota.")).toBeVisible();
  await expect(texto).toBeFocused();
  await expect(texto).toHaveAttribute("rows", "5");
  await expectNoAxeViolations(page);

  await texto.fill("Del 4 al 7 de noviembre.\n<script>alert(1)</script>");
  await notas
    .getByLabel("Enlace adicional 1", { exact: true })
    .fill("https://example.com/inscripcion");
  await notas.getByRole("button", { name: "+ Añadir enlace adicional" }).click();
  await expect(notas.getByLabel("Enlace adicional 2", { exact: true })).toBeFocused();
  await notas.getByLabel("Enlace adicional 2", { exact: true }).fill("https://example.com/grupo");
  await notas.getByRole("button", { name: "Publicar Nota" }).click();
  await acknowledge(page, "Nota publicada con éxito!");
  // The form is empty again.
  await expect(notas.getByRole("textbox", { name: "Título", exact: true })).toHaveValue("");
  await expect(notas.getByLabel("Enlace adicional 1", { exact: true })).toHaveValue("");
  await expect(notas.getByLabel("Enlace adicional 2", { exact: true })).toHaveCount(0);

  // The other admin's list shows it without a reload.
  await expect(watcherNotes.getByRole("link", { name: noteTitle, exact: true })).toBeVisible();

  // A resource with two videos; a link row removed never leaves the list empty.
  const recursos = section(page, "Recursos");
  await recursos.getByRole("textbox", { name: "Título", exact: true }).fill(resourceTitle);
  await recursos
    .getByRole("textbox", { name: "Texto", exact: true })
    .fill("Sensores, motores y un laberinto.");
  await recursos
    .getByLabel("Enlace de video de YouTube 1", { exact: true })
    .fill("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
  await recursos.getByRole("button", { name: "+ Añadir enlace de video de youtube" }).click();
  await recursos
    .getByLabel("Enlace de video de YouTube 2", { exact: true })
    .fill("https://youtu.be/9bZkp7q19f0");
  await recursos.getByRole("button", { name: "+ Añadir enlace de video de youtube" }).click();
  await recursos.getByRole("button", { name: "Quitar enlace de video de youtube 3" }).click();
  await expect(recursos.getByLabel("Enlace de video de YouTube 2", { exact: true })).toBeFocused();
  await expect(recursos.getByLabel("Enlace de video de YouTube 3", { exact: true })).toHaveCount(0);
  // The only row of a list is never removed.
  await expect(recursos.getByRole("button", { name: "Quitar enlace web 1" })).toHaveCount(0);
  await recursos.getByRole("button", { name: "Publicar Recurso" }).click();
  await acknowledge(page, "Recurso publicado con éxito!");
  await expect(
    section(watcher.page, "Recursos").getByRole("link", { name: resourceTitle, exact: true }),
  ).toBeVisible();

  // 'Editar' fills the form; saving returns to create mode.
  await recursos.getByText("Mostrar Recursos").click();
  await recursos
    .getByRole("link", { name: `Editar el recurso ${resourceTitle}`, exact: true })
    .click();
  await expect(recursos.getByRole("heading", { name: "Editar Recurso" })).toBeVisible();
  await expect(recursos.getByRole("textbox", { name: "Título", exact: true })).toHaveValue(
    resourceTitle,
  );
  await expect(recursos.getByLabel("Enlace de video de YouTube 2", { exact: true })).toHaveValue(
    "https://youtu.be/9bZkp7q19f0",
  );
  await expectNoAxeViolations(page);
  await recursos
    .getByRole("textbox", { name: "Título", exact: true })
    .fill(`${resourceTitle} (actualizada)`);
  await recursos.getByRole("button", { name: "Actualizar Recurso" }).click();
  await acknowledge(page, "Recurso actualizado con éxito!");
  await expect(recursos.getByRole("heading", { name: "Formulario de Recursos" })).toBeVisible();
  await expect(recursos.getByRole("textbox", { name: "Título", exact: true })).toHaveValue("");
  await expect(
    section(watcher.page, "Recursos").getByRole("link", {
      name: `${resourceTitle} (actualizada)`,
      exact: true,
    }),
  ).toBeVisible();

  // 'Cancelar Edición' returns to create mode without saving.
  await recursos
    .getByRole("link", { name: `Editar el recurso ${resourceTitle} (actualizada)`, exact: true })
    .click();
  await recursos.getByRole("textbox", { name: "Título", exact: true }).fill("No se guarda");
  await recursos.getByRole("link", { name: "Cancelar Edición", exact: true }).click();
  await expect(recursos.getByRole("heading", { name: "Formulario de Recursos" })).toBeVisible();
  await expect(recursos.getByRole("textbox", { name: "Título", exact: true })).toHaveValue("");
  await expect(
    recursos.getByRole("link", { name: `${resourceTitle} (actualizada)`, exact: true }),
  ).toBeVisible();

  // A project, then 'Mostrar Proyectos' opens 'Lista de Proyectos'.
  const proyectos = section(page, "Proyectos");
  await proyectos.getByRole("textbox", { name: "Título", exact: true }).fill(projectTitle);
  await proyectos
    .getByRole("textbox", { name: "Descripción", exact: true })
    .fill("Un robot que empuja.\nPeso: 3 kg.");
  await proyectos
    .getByLabel("Enlace de video de YouTube 1", { exact: true })
    .fill("https://youtu.be/dQw4w9WgXcQ");
  await proyectos
    .getByLabel("Enlace de documentación 1", { exact: true })
    .fill("https://example.com/docs");
  await proyectos.getByRole("button", { name: "Publicar Proyecto" }).click();
  await acknowledge(page, "Proyecto publicado con éxito!");
  await proyectos.getByRole("link", { name: "Mostrar Proyectos", exact: true }).click();
  const list = page.getByRole("dialog", { name: "Lista de Proyectos" });
  await expect(list.getByRole("link", { name: projectTitle, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();

  // A visitor reads the resource and the project, and the note in the news.
  const visitor = await newPage(browser, baseURL);
  // The home page's Community News card (open by default) shows the latest notes.
  await visitor.page.goto("/");
  await expect(
    visitor.page.locator("#articles").getByRole("link", { name: noteTitle }),
  ).toBeVisible();
  await expectNoAxeViolations(visitor.page);
  await visitor.page.goto("/notas");
  await expect(visitor.page.getByRole("link", { name: noteTitle, exact: true })).toBeVisible();
  await expectNoAxeViolations(visitor.page);
  await visitor.page.getByRole("link", { name: noteTitle, exact: true }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: noteTitle })).toBeVisible();
  // Typed as text, shown as text.
  await expect(visitor.page.getByText("<script>alert(1)</script>")).toBeVisible();
  await expectNoAxeViolations(visitor.page);

  await visitor.page.goto("/recursos");
  await expectNoAxeViolations(visitor.page);
  await visitor.page
    .getByRole("link", { name: `${resourceTitle} (actualizada)`, exact: true })
    .click();
  await expect(
    visitor.page.getByRole("heading", { level: 1, name: `${resourceTitle} (actualizada)` }),
  ).toBeVisible();
  const play = visitor.page.getByRole("link", { name: /^Reproducir video:/, exact: true });
  await expect(play).toHaveCount(2);
  await expect(visitor.page.locator("iframe")).toHaveCount(0);
  await expectNoAxeViolations(visitor.page);
  await play.first().click();
  const player = visitor.page.locator("iframe");
  await expect(player).toHaveAttribute(
    "src",
    "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1",
  );
  await expect(player).toHaveAttribute("title", `Video: ${resourceTitle} (actualizada) (1)`);

  await visitor.page.goto("/proyectos");
  await expectNoAxeViolations(visitor.page);
  await visitor.page.getByRole("link", { name: projectTitle, exact: true }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: projectTitle })).toBeVisible();
  await expect(visitor.page.getByText("Peso: 3 kg.")).toBeVisible();
  await expect(
    visitor.page.getByRole("link", { name: /https:\/\/example\.com\/docs/, exact: true }),
  ).toBeVisible();
  await expectNoAxeViolations(visitor.page);

  // Deleting the note asks first; the other admin sees it go.
  await notas.getByText("Mostrar Notas").click();
  await notas.getByRole("link", { name: `Eliminar la nota ${noteTitle}`, exact: true }).click();
  const confirm = page.getByRole("dialog", {
    name: "¿Estás seguro de que deseas eliminar esta nota?",
  });
  await expect(confirm).toBeVisible();
  // The safe choice has the focus; Tab reaches 'Eliminar' inside the modal.
  await expect(confirm.getByRole("link", { name: "Cancelar", exact: true })).toBeFocused();
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Eliminar" }).click();
  await acknowledge(page, "Nota eliminada con éxito!");
  await expect(notas.getByRole("link", { name: noteTitle, exact: true })).toHaveCount(0);
  await expect(watcherNotes.getByRole("link", { name: noteTitle, exact: true })).toHaveCount(0);

  await visitor.page.goto("/notas");
  await expect(visitor.page.getByRole("link", { name: noteTitle, exact: true })).toHaveCount(0);
  await visitor.page.goto("/");
  await expect(
    visitor.page.locator("#articles").getByRole("link", { name: noteTitle }),
  ).toHaveCount(0);

  expect(watcher.errors).toEqual([]);
  expect(visitor.errors).toEqual([]);
  await watcher.close();
  await visitor.close();
});

test("a member who opens /projectsandnotes is sent to /inicio with 'Acceso denegado. No eres un administrador.'", async ({
  page,
}) => {
  await createMember(page);
  await page.goto("/projectsandnotes");
  await expect(page).toHaveURL(/\/inicio$/);
  await acknowledge(page, "Acceso denegado. No eres un administrador.");
});

test("with JavaScript off, an admin publishes a note and a resource, edits, cancels and deletes through plain forms and links", async ({
  browser,
  baseURL,
}) => {
  // Signed in with scripts on; the admin page is then used without.
  const signIn = await newPage(browser, baseURL);
  await signInAdmin(signIn.page, ADMIN, "Ana Admin");
  const state = await signIn.page.context().storageState();
  await signIn.close();
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    storageState: state,
    locale: "es-BO",
    timezoneId: "America/La_Paz",
  });
  const page = await context.newPage();
  const stamp = Date.now().toString(36);
  try {
    await page.goto("/projectsandnotes");
    await expect(
      page.getByRole("heading", { level: 1, name: "Panel de Administración" }),
    ).toBeVisible();
    // No script, so no '+ Añadir'; a blank row is there to fill.
    await expect(page.getByRole("button", { name: /Añadir/ })).toHaveCount(0);

    const notas = section(page, "Notas");
    await notas.getByRole("textbox", { name: "Título", exact: true }).fill(`Sin script ${stamp}`);
    await notas
      .getByRole("textbox", { name: "Texto", exact: true })
      .fill("Funciona sin JavaScript.");
    await notas.getByLabel("Enlace adicional 1", { exact: true }).fill("javascript:alert(1)");
    await notas.getByRole("button", { name: "Publicar Nota" }).click();
    await expect(
      notas.getByText("Cada enlace debe ser una URL válida que empiece con http:// o https://."),
    ).toBeVisible();
    await expect(notas.getByRole("textbox", { name: "Título", exact: true })).toHaveValue(
      `Sin script ${stamp}`,
    );
    await notas.getByLabel("Enlace adicional 1", { exact: true }).fill("https://example.com/ok");
    await notas.getByRole("button", { name: "Publicar Nota" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Nota publicada con éxito!");

    const recursos = section(page, "Recursos");
    await recursos
      .getByRole("textbox", { name: "Título", exact: true })
      .fill(`Recurso sin script ${stamp}`);
    await recursos.getByRole("textbox", { name: "Texto", exact: true }).fill("Texto.");
    await recursos
      .getByLabel("Enlace de video de YouTube 1", { exact: true })
      .fill("https://vimeo.com/1234567");
    await recursos.getByRole("button", { name: "Publicar Recurso" }).click();
    await expect(
      recursos.getByText(
        "Cada enlace de video debe ser una URL de YouTube (youtube.com o youtu.be).",
      ),
    ).toBeVisible();
    await recursos
      .getByLabel("Enlace de video de YouTube 1", { exact: true })
      .fill("https://youtu.be/dQw4w9WgXcQ");
    await recursos.getByRole("button", { name: "Publicar Recurso" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Recurso publicado con éxito!");

    // The lists open without script (a disclosure), 'Editar' is a link, saving returns to create mode.
    await recursos.getByText("Mostrar Recursos").click();
    await recursos
      .getByRole("link", { name: `Editar el recurso Recurso sin script ${stamp}`, exact: true })
      .click();
    await expect(recursos.getByRole("heading", { name: "Editar Recurso" })).toBeVisible();
    // The saved video and one blank row to add another.
    await expect(recursos.getByLabel("Enlace de video de YouTube 1", { exact: true })).toHaveValue(
      "https://youtu.be/dQw4w9WgXcQ",
    );
    await recursos
      .getByLabel("Enlace de video de YouTube 2", { exact: true })
      .fill("https://youtu.be/9bZkp7q19f0");
    await recursos.getByRole("button", { name: "Actualizar Recurso" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Recurso actualizado con éxito!");
    await expect(recursos.getByRole("heading", { name: "Formulario de Recursos" })).toBeVisible();

    await recursos.getByText("Mostrar Recursos").click();
    await recursos
      .getByRole("link", { name: `Editar el recurso Recurso sin script ${stamp}`, exact: true })
      .click();
    await recursos.getByRole("link", { name: "Cancelar Edición", exact: true }).click();
    await expect(recursos.getByRole("heading", { name: "Formulario de Recursos" })).toBeVisible();

    // Deleting: the confirmation is a page state, then a plain form.
    await notas.getByText("Mostrar Notas").click();
    await notas
      .getByRole("link", { name: `Eliminar la nota Sin script ${stamp}`, exact: true })
      .click();
    const confirm = page.getByRole("dialog", {
      name: "¿Estás seguro de que deseas eliminar esta nota?",
    });
    await confirm.getByRole("button", { name: "Eliminar" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Nota eliminada con éxito!");

    await page.goto("/proyectos");
    await page.goto(`/projectsandnotes?proyectos=1`);
    await expect(page.getByRole("dialog", { name: "Lista de Proyectos" })).toBeVisible();
    await page
      .getByRole("dialog", { name: "Lista de Proyectos" })
      .getByRole("link", { name: "Cerrar", exact: true })
      .click();
    await expect(page.getByRole("dialog", { name: "Lista de Proyectos" })).toHaveCount(0);

    const stored = await (await context.request.get(`/recursos`)).text();
    expect(stored).toContain(`Recurso sin script ${stamp}`);
  } finally {
    await context.close();
  }
});
