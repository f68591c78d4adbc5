// One category on competition day, for its organisers (issue 39; decision 060), in a real browser
// at 360 px: from the categories' page to the category's screen, the score sheet's criteria and
// tie rule typed and saved, the results marked final (the forms close) and reopened. axe on each
// state; screenshots at 360 and 1280 px go to SHOTS_DIR when it is set.
import {
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  workerBaseUrl,
  okAlert,
} from "./fixtures";

test("an organiser sets a score sheet's criteria and tie rule, marks the results final and reopens them", async ({
  page,
  consoleErrors,
}) => {
  // The refused criteria answer 400, as they should.
  consoleErrors.allow(/status of 400 \(Bad Request\)/);
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const eventId = await publishEvent(
    page,
    `Feria escolar ${Math.random().toString(16).slice(2, 6)}`,
    {
      startsAt: new Date("2037-12-06T23:00:00Z"),
    },
  );
  const made = await page.request.post(`/admin/eventos/${eventId}/categorias`, {
    form: {
      intent: "addCategory",
      nombre: "Desafío escolar",
      nivel: "primaria",
      minimo: "2",
      maximo: "3",
      entrenador: "",
      reglas: "",
      peso: "",
      tamano: "",
      cupo: "",
      cuota: "",
      fechaCierre: "2037-11-30",
      horaCierre: "18:00",
      formato: "puntaje",
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(made.status()).toBe(302);

  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/admin/eventos/${eventId}/categorias`);
  await okAlert(page, "Categoría agregada.");
  await page.getByRole("link", { name: "Organizar resultados de Desafío escolar" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Resultados: Desafío escolar");
  await expect(page.getByText("Aún no hay equipos en competencia.")).toBeVisible();
  await expectNoAxeViolations(page);

  const rules = page.getByRole("region", { name: "Cómo se juzga" });
  await rules.getByLabel("Mejor nota de un juez").check();
  await rules.getByLabel("Criterio 1", { exact: true }).fill("Diseño del robot");
  await rules.getByLabel("Máximo del criterio 1").fill("10");
  await rules.getByLabel("Criterio 2", { exact: true }).fill("Programación");
  await rules.getByLabel("Máximo del criterio 2").fill("20");
  await rules.getByRole("button", { name: "Guardar cómo se juzga" }).click();
  await okAlert(page, "Forma de juzgar guardada.");
  await expect(rules.getByLabel("Criterio 2", { exact: true })).toHaveValue("Programación");
  await expect(rules.getByLabel("Mejor nota de un juez")).toBeChecked();
  // The criteria saved, and three blank rows more for the next ones.
  await expect(rules.getByLabel("Criterio 5", { exact: true })).toHaveValue("");
  await expectNoAxeViolations(page);
  await shoot(page, "organise-rules", rules);

  // A criterion without its maximum: the message next to the form, nothing saved.
  await rules.getByLabel("Criterio 3", { exact: true }).fill("Presentación");
  await rules.getByRole("button", { name: "Guardar cómo se juzga" }).click();
  await expect(rules.getByRole("alert")).toContainText("La hoja de puntaje necesita entre 1 y 20");
  await page.reload();
  await expect(rules.getByLabel("Criterio 3", { exact: true })).toHaveValue("");

  const final = page.getByRole("region", { name: "Resultados finales" });
  await final.getByRole("button", { name: "Marcar resultados como finales" }).click();
  await okAlert(page, /Resultados marcados como finales/);
  await expect(final.getByRole("button", { name: "Reabrir resultados" })).toBeVisible();
  await expect(rules.getByRole("button", { name: "Guardar cómo se juzga" })).toHaveCount(0);
  await expect(rules.getByLabel("Criterio 1", { exact: true })).toBeDisabled();
  await expect(page.getByRole("region", { name: "Certificados" })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "organise-final");

  await final.getByRole("button", { name: "Reabrir resultados" }).click();
  await okAlert(page, /Resultados reabiertos/);
  await expect(final.getByRole("button", { name: "Marcar resultados como finales" })).toBeVisible();
  await expect(rules.getByLabel("Criterio 1", { exact: true })).toBeEnabled();
});
