// Events as a series of sessions (issue 34) in a real browser: an admin publishes a course,
// generates its classes Monday to Friday on the management page, cancels one, and the event's
// page lists them with the cancelled one marked. axe on the editor and on the page; screenshots at
// 360 and 1280 px go to SHOTS_DIR when it is set.
import {
  createMember,
  expect,
  expectNoAxeViolations,
  inLaPaz,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  okAlert,
} from "./fixtures";

test("an admin generates a course's sessions by a rule, cancels one, and the event page lists them", async ({
  page,
  baseURL,
  consoleErrors,
}) => {
  // The refused rule's answer.
  consoleErrors.allow(/status of 400/);
  await signInAdmin(page);
  const name = `El Camino del Ratón ${Math.random().toString(16).slice(2, 6)}`;
  await page.goto("/admin");
  const form = page.locator("#evento-form");
  await form.getByLabel("Nombre del evento").fill(name);
  await form.getByLabel("Ubicación (país, ciudad)").fill("Bolivia, La Paz");
  // Monday 2 November 2037, 19:00 to 21:00: the first class.
  await form.getByRole("textbox", { name: "Fecha", exact: true }).fill("2037-11-02");
  await form.getByRole("textbox", { name: "Hora", exact: true }).fill("19:00");
  await form.getByLabel("Enlace de la imagen").fill(`${baseURL}/demo/vision.svg`);
  await form
    .getByLabel("Descripción")
    .fill("Curso preparatorio de Micromouse, del lunes al viernes.");
  await form.getByRole("button", { name: "Publicar Evento" }).click();
  await okAlert(page, "Evento publicado con éxito!");
  const row = page
    .getByRole("region", { name: "Eventos Publicados" })
    .getByRole("listitem")
    .filter({ hasText: name });
  const href = await row.getByRole("link", { name, exact: true }).getAttribute("href");
  const eventId = href!.split("/").pop()!;

  try {
    await page.goto(`/admin/eventos/${eventId}/sesiones`);
    const editor = page.getByRole("region", { name: "Sesiones" });
    await expect(editor.getByRole("listitem")).toHaveCount(1);

    // Tuesday 3 to Friday 6: four more, by the Monday-to-Friday rule (the default).
    const rule = editor
      .locator("form")
      .filter({ has: page.getByRole("heading", { name: "Generar sesiones" }) });
    await expect(
      rule.getByRole("radio", { name: "De lunes a viernes, entre dos fechas" }),
    ).toBeChecked();
    await rule.getByLabel("Desde").fill("2037-11-03");
    await rule.getByLabel("Hasta").fill("2037-11-06");
    await rule.getByLabel("Hora de inicio").fill("19:00");
    await rule.getByLabel("Duración (minutos)").fill("120");
    await rule.getByLabel("Lugar de la sesión").fill("Laboratorio 2, Obrajes");
    await rule.getByRole("button", { name: "Generar sesiones" }).click();
    await okAlert(page, "Sesiones generadas.");
    await expect(editor.getByRole("listitem")).toHaveCount(5);
    await expect(editor).toContainText("viernes, 6 de noviembre de 2037");
    // The rule's form is empty again once it made them: a second tap would not repeat it.
    await expect(rule.getByLabel("Desde")).toHaveValue("");
    await expect(rule.getByLabel("Lugar de la sesión")).toHaveValue("");

    // Thursday's class is cancelled.
    await editor
      .getByRole("button", { name: /^Cancelar la sesión del jueves, 5 de noviembre/ })
      .click();
    await okAlert(page, /Sesión cancelada/);
    const cancelled = editor.getByRole("listitem").filter({ hasText: "Cancelada" });
    await expect(cancelled).toHaveCount(1);
    await expect(cancelled).toContainText("jueves, 5 de noviembre de 2037");
    await expectNoAxeViolations(page);
    await shoot(page, "session-editor", editor);

    // The same rule again overlaps every class: refused by its first day, nothing added.
    await rule.getByLabel("Desde").fill("2037-11-03");
    await rule.getByLabel("Hasta").fill("2037-11-06");
    await rule.getByRole("button", { name: "Generar sesiones" }).click();
    const desde = rule.getByLabel("Desde");
    await expect(desde).toHaveAttribute("aria-invalid", "true");
    await expect(desde).toHaveAccessibleDescription(
      /La sesión se superpone con otra sesión del evento\./,
    );
    await expect(editor.getByRole("listitem")).toHaveCount(5);
    await expectNoAxeViolations(page);
    await shoot(page, "session-editor-rule", rule);

    // The event's page: five listed, four held, Thursday's marked.
    await page.goto(`/detalles/${eventId}`);
    const sessions = page.getByRole("region", { name: /^Sesiones/ });
    await expect(sessions.getByRole("heading")).toHaveText("Sesiones (4)");
    await expect(sessions.getByRole("listitem")).toHaveCount(5);
    await expect(sessions.getByRole("listitem").filter({ hasText: "Cancelada" })).toContainText(
      "jueves, 5 de noviembre de 2037",
    );
    await expect(sessions).toContainText("Laboratorio 2, Obrajes");
    // The event runs from the first class to the last; the next class is named.
    const details = page.locator("dl.details");
    await expect(details.getByText("Del 2 al 6 de noviembre de 2037 · 4 sesiones")).toBeVisible();
    await expect(details.getByText("Próxima sesión")).toBeVisible();
    await expect(
      details.getByText(/^lunes, 2 de noviembre de 2037, 7:00\s*p\.\s*m\. a 9:00\s*p\.\s*m\.$/),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, "course-page");
    await shoot(page, "course-page-sessions", sessions);

    // The card says how many.
    await page.goto("/eventos");
    await expect(page.getByRole("listitem").filter({ hasText: name })).toContainText("4 sesiones");
  } finally {
    // The server is shared with the other files of this worker: the course goes at the end.
    const origin = new URL(baseURL!).origin;
    const reply = await page.request.post("/admin", {
      form: { intent: "delete", eventId },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status()).toBe(302);
  }
});

test("a club's member says they will miss one session, and its organiser sees it and marks who came", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const origin = new URL(baseURL!).origin;
  const name = `Club de robótica ${Math.random().toString(16).slice(2, 6)}`;
  // Its first meeting starts in half an hour (its door is open); two more, a week apart.
  const eventId = await publishEvent(page, name, { descripcion: "Nos reunimos cada semana." });
  try {
    for (const days of [7, 14]) {
      const day = inLaPaz(new Date(Date.now() + days * 24 * 3_600_000)).fecha;
      const added = await page.request.post(`/admin/eventos/${eventId}`, {
        headers: { Origin: origin },
        form: { intent: "addSession", fecha: day, inicio: "10:00", fin: "12:00" },
      });
      expect(added.ok(), await added.text()).toBe(true);
    }

    const memberContext = await browser.newContext({ baseURL });
    const member = await memberContext.newPage();
    await createMember(member, { nombreCompleto: "Ana Quispe" });
    await member.request.post(`/detalles/${eventId}`, {
      headers: { Origin: origin },
      form: { intent: "join" },
    });
    await member.goto(`/detalles/${eventId}`);
    const sessions = member.getByRole("region", { name: /^Sesiones/ });
    await expect(sessions.getByRole("button", { name: /^No podré ir/ })).toHaveCount(3);
    await sessions
      .getByRole("button", { name: /^No podré ir/ })
      .nth(1)
      .click();
    await okAlert(member, /Avisaste que no irás a esa sesión/);
    await expect(sessions.getByText("No irás", { exact: true })).toBeVisible();
    await expect(sessions.getByRole("button", { name: /^Sí iré/ })).toHaveCount(1);
    await expectNoAxeViolations(member);
    await shoot(member, "club-page-member", sessions);

    // The organiser's view: who will not come, and 'Marcar' on the session whose door is open.
    await page.goto(`/admin/eventos/${eventId}/participantes`);
    await expect(page.getByText("1 avisó que no vendrá")).toBeVisible();
    const ana = page.getByRole("listitem").filter({ hasText: "Ana Quispe" });
    await ana.getByText("0/3 sesiones").click();
    await expect(ana).toContainText("avisó que no vendrá");
    await ana
      .getByRole("button", { name: /^Marcar presente de Ana Quispe en la Sesión 1/ })
      .click();
    await okAlert(page, "Asistencia registrada.");
    // The list stays open across the post, with the first session marked.
    await expect(page.getByText("1/3 sesiones")).toBeVisible();
    await expect(
      ana.getByRole("button", { name: /^Quitar la asistencia de Ana Quispe en la Sesión 1/ }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, "participants-sessions");

    // Her profile counts it.
    await member.goto("/profile");
    const history = member.getByRole("listitem").filter({ hasText: name });
    await expect(history).toContainText("Asististe a 1 de 3 sesiones");
    await expectNoAxeViolations(member);
    await shoot(member, "profile-sessions", history);
    await memberContext.close();
  } finally {
    const reply = await page.request.post("/admin", {
      form: { intent: "delete", eventId },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status()).toBe(302);
  }
});
