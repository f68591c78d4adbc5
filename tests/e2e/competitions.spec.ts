// A competition's categories (issue 38, point 1) in a real browser at 360 px: an admin adds two
// categories to an event, picks it for an item of /events at /admin/sitio, and a visitor finds the
// competition from /events and reads its categories on the event's page, also in light mode. axe on
// every page; screenshots at 360 and 1280 px go to SHOTS_DIR when it is set.
import type { Page } from "@playwright/test";
import {
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  test,
  okAlert,
  signInAdminOnPhone,
} from "./fixtures";

/**
 * The /events item 'Competencia' (the demo's competition, first) set to `eventId`; returns the
 * event it linked before, to put back.
 */
async function pickCompetition(page: Page, eventId: string): Promise<string> {
  await page.goto("/admin/sitio?seccion=competition");
  const section = page
    .locator("form")
    .filter({ has: page.locator('select[name="events.eventId"]') });
  const names = section.locator('input[name="events.name"]');
  const count = await names.count();
  let row = -1;
  for (let i = 0; i < count; i++) if ((await names.nth(i).inputValue()) === "Competencia") row = i;
  expect(row, "la fila 'Competencia'").toBeGreaterThanOrEqual(0);
  const select = section.locator('select[name="events.eventId"]').nth(row);
  const before = await select.inputValue();
  await select.selectOption(eventId);
  await section.getByRole("button", { name: /^Guardar/ }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  return before;
}

test("an admin adds a competition's categories, and a visitor finds them from /events on its page at 360 px", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // The refused category's answer.
  consoleErrors.allow(/status of 400/);
  await signInAdminOnPhone(page);
  const name = `Clash Robotics ${Math.random().toString(16).slice(2, 6)}`;
  const eventId = await publishEvent(page, name, {
    startsAt: new Date("2037-12-06T23:00:00Z"),
    descripcion: "La competencia de robótica de la comunidad.",
  });
  // The event the demo's row linked, put back at the end.
  let demoCompetition = "";
  try {
    // An ordinary event (no categories yet) keeps the specification's 'Participar', and leads
    // with it.
    await page.goto(`/detalles/${eventId}`);
    const ordinaryRow = page.locator(".event-detail-body .button-row");
    await expect(
      ordinaryRow.getByRole("button", { name: "Participar", exact: true }),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Inscribir un equipo" })).toHaveCount(0);
    await expect(page.getByText("Asistir como público")).toHaveCount(0);

    await page.goto(`/admin/eventos/${eventId}`);
    await page
      .getByRole("navigation", { name: "Gestionar el evento" })
      .getByRole("link", { name: "Categorías", exact: true })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Categorías: ${name}`);
    const form = page.locator("form.category-form");
    await form.getByLabel("Nombre").fill("Robot Sumo 3 kg");
    await form.getByLabel("Nivel").selectOption("secundaria");
    await form.getByLabel("Cómo se juzga").selectOption("llaves");
    await form.getByLabel("Mínimo de integrantes").fill("2");
    await form.getByLabel("Máximo de integrantes").fill("3");
    await form.getByLabel("Reglas del robot").fill("Robot autónomo, sin armas.\nRing de 154 cm.");
    await form.getByLabel("Peso máximo (g)").fill("3000");
    await form.getByLabel("Tamaño máximo (cm)").fill("20");
    await form.getByLabel("Cupo (equipos)").fill("16");
    await form.getByLabel("Cuota por equipo (Bs)").fill("50");
    await form.getByLabel("Cierre de inscripciones").fill("2037-11-30");
    await form.getByLabel("Hora de cierre").fill("18:00");
    await form.getByRole("button", { name: "Agregar categoría" }).click();
    await okAlert(page, "Categoría agregada.");

    // A refused one: the minimum over the maximum, said by its field; nothing added.
    await form.getByLabel("Nombre").fill("Micromouse");
    await form.getByLabel("Nivel").selectOption("universidad");
    await form.getByLabel("Cómo se juzga").selectOption("tiempo");
    await form.getByLabel("Mínimo de integrantes").fill("3");
    await form.getByLabel("Máximo de integrantes").fill("1");
    await form.getByLabel("Cierre de inscripciones").fill("2037-11-30");
    await form.getByRole("button", { name: "Agregar categoría" }).click();
    const minimum = form.getByLabel("Mínimo de integrantes");
    await expect(minimum).toHaveAttribute("aria-invalid", "true");
    await expect(minimum).toHaveAccessibleDescription(
      /El mínimo de integrantes no puede ser mayor que el máximo\./,
    );
    await expectNoAxeViolations(page);
    await form.getByLabel("Mínimo de integrantes").fill("1");
    await form.getByRole("button", { name: "Agregar categoría" }).click();
    await okAlert(page, "Categoría agregada.");

    const list = page.getByRole("region", { name: /^Categorías/ });
    await expect(list.getByRole("article")).toHaveCount(2);
    // Micromouse goes first.
    await list.getByRole("button", { name: "Subir Micromouse" }).click();
    await okAlert(page, "Orden de las categorías guardado.");
    await expect(list.getByRole("article").first()).toContainText("Micromouse");
    await expectNoAxeViolations(page);
    await shoot(page, "competition-category-editor");

    // Its page leads with the team's registration (decision 077): the first button, filled and
    // in the first screen of a phone; the audience's seat comes after it and says what it is.
    await page.goto(`/detalles/${eventId}`);
    const body = page.locator(".event-detail-body");
    const row = body.locator(".button-row");
    const register = body.getByRole("link", { name: "Inscribir un equipo" });
    await expect(body.locator(".button").first()).toHaveText("Inscribir un equipo");
    // Two categories take teams: it leads to them, to choose one.
    await expect(register).toHaveAttribute("href", "#categorias");
    await expect(register).toHaveClass(/^button$/);
    await expect(register).toBeInViewport();
    const audience = row.getByRole("button", { name: "Asistir como público" });
    await expect(audience).toHaveClass(/button-secondary/);
    await expect(row.getByRole("button", { name: "Participar", exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await shoot(page, "competition-first-button");
    await register.click();
    await expect(page).toHaveURL(/#categorias$/);
    // The seat in the audience says it registers no team.
    await audience.click();
    await okAlert(page, /Te anotaste como público\. Esto no inscribe a ningún equipo/);
    // Leaving is the quiet link at the end of the page (decision 078).
    await body.getByRole("button", { name: "Dejar de asistir como público" }).click();
    await okAlert(page, "Ya no estás anotado como público de esta competencia.");

    demoCompetition = await pickCompetition(page, eventId);

    // A visitor, on a phone.
    const visitor = await browser.newContext({
      baseURL,
      viewport: { width: 360, height: 780 },
    });
    const phone = await visitor.newPage();
    await phone.goto("/events");
    // The row shows the linked event's own name (decision 076), and /events leads with it.
    await expect(phone.getByRole("heading", { level: 1 })).toHaveText(name);
    const item = phone.locator(".competition-list > li").filter({ hasText: name });
    await expect(item.getByRole("link", { name: "Robot Sumo 3 kg" })).toBeVisible();
    await expectNoAxeViolations(phone);
    await shoot(phone, "competition-events-item", item);
    await phone.setViewportSize({ width: 360, height: 780 });
    // Signed out: the seat in the audience asks to sign in, under its own name.
    await phone.goto(`/detalles/${eventId}`);
    await expect(
      phone.getByRole("link", { name: "Inicia Sesión para asistir como público" }),
    ).toBeVisible();
    await expect(phone.getByRole("link", { name: "Inicia Sesión para Participar" })).toHaveCount(0);
    await phone.goto("/events");
    await item.getByRole("link", { name: "Robot Sumo 3 kg" }).click();
    await expect(phone).toHaveURL(new RegExp(`/detalles/${eventId}#categoria-`));
    const categories = phone.getByRole("region", { name: /^Categorías/ });
    await expect(categories.getByRole("heading", { level: 2 })).toHaveText("Categorías (2)");
    const sumo = categories.getByRole("article", { name: "Robot Sumo 3 kg" });
    for (const shown of [
      "Secundaria",
      "Llaves (eliminatorias)",
      "De 2 a 3 integrantes, con un entrenador adulto",
      "Bs 50",
      "lunes, 30 de noviembre de 2037",
      "Quedan 16 lugares de 16",
      "peso máximo 3.000 g · tamaño máximo 20 cm",
      "Ring de 154 cm.",
      "Aún no hay equipos inscritos.",
    ])
      await expect(sumo, shown).toContainText(shown);
    const mouse = categories.getByRole("article", { name: "Micromouse" });
    await expect(mouse).toContainText("Contra reloj");
    await expect(mouse).toContainText("sin entrenador obligatorio");
    await expect(mouse).toContainText("Gratis");
    await expectNoAxeViolations(phone);
    await shoot(phone, "competition-categories", categories);
    await visitor.close();

    // Light mode (Save-Data): the same categories, without scripts.
    const light = await browser.newContext({
      baseURL,
      viewport: { width: 360, height: 780 },
      extraHTTPHeaders: { "Save-Data": "on" },
    });
    const lightPage = await light.newPage();
    await lightPage.goto(`/detalles/${eventId}#categorias`);
    await expect(
      lightPage.getByRole("region", { name: /^Categorías/ }).getByRole("article"),
    ).toHaveCount(2);
    expect(await lightPage.locator("script[src], script[type=module]").count()).toBe(0);
    await expectNoAxeViolations(lightPage);
    await shoot(lightPage, "competition-categories-light", lightPage.locator("#categorias"));
    await light.close();
  } finally {
    // The server is shared with the other files of this worker: the item and the event go.
    await pickCompetition(page, demoCompetition);
    const origin = new URL(baseURL!).origin;
    const reply = await page.request.post("/admin", {
      form: { intent: "delete", eventId },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status()).toBe(302);
  }
});
