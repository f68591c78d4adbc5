// Judges (issue 39, step 2; decision 057) in a real browser at 360 px: an organiser of a
// competition gives a member the judge's role for one category on the event's management page,
// picking the category in the form (which works without JavaScript), sees them listed with it and
// takes it back. axe on the page; screenshots at 360 and 1280 px go to SHOTS_DIR when it is set.
import {
  createMember,
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  test,
  workerBaseUrl,
  okAlert,
  signInAdminOnPhone,
} from "./fixtures";

test("an organiser gives a judge one category of their competition and takes the role back", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdminOnPhone(page);
  const origin = new URL(workerBaseUrl()).origin;
  const eventId = await publishEvent(
    page,
    `Copa de robots ${Math.random().toString(16).slice(2, 6)}`,
    {
      startsAt: new Date("2037-12-06T23:00:00Z"),
    },
  );
  for (const [nombre, formato] of [
    ["Robot Sumo 3 kg", "llaves"],
    ["Seguidor de línea", "tiempo"],
  ]) {
    const made = await page.request.post(`/admin/eventos/${eventId}/categorias`, {
      form: {
        intent: "addCategory",
        nombre: nombre!,
        nivel: "secundaria",
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
        formato: formato!,
      },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(made.status()).toBe(302);
  }

  const organiserContext = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 780 },
  });
  const organiserPage = await organiserContext.newPage();
  const organiser = await createMember(organiserPage, { nombreCompleto: "Olga Organiza" });
  const judgeContext = await browser.newContext({ baseURL });
  const judge = await createMember(await judgeContext.newPage(), { nombreCompleto: "Julia Jueza" });
  await page.goto(`/detalles/${eventId}`);
  await okAlert(page, "Categoría agregada.");
  const adminTeam = page.getByRole("region", { name: "Personal del evento" });
  await adminTeam.getByLabel("Correo del miembro").fill(organiser.email);
  await adminTeam.getByLabel("Rol").selectOption({ label: "Organización del evento" });
  await adminTeam.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(page, "Rol otorgado.");

  await organiserPage.goto(`/admin/eventos/${eventId}/personal`);
  const team = organiserPage.getByRole("region", { name: "Personal del evento" });
  await team.getByLabel("Correo del miembro").fill(judge.email);
  await team.getByLabel("Rol").selectOption({ label: "Jurado" });
  // Without a category the form says what is missing, next to it.
  await team.getByRole("button", { name: "Dar rol" }).click();
  await expect(team.getByText("Elige la categoría que juzgará.")).toBeVisible();
  await team.getByLabel("Correo del miembro").fill(judge.email);
  await team.getByLabel("Rol").selectOption({ label: "Jurado" });
  await team.getByLabel("Categoría que juzgará").selectOption({ label: "Robot Sumo 3 kg" });
  await expectNoAxeViolations(organiserPage);
  await shoot(organiserPage, "judge-grant-form", team);
  await team.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(organiserPage, "Rol otorgado.");
  const listed = team.getByRole("listitem").filter({ hasText: "Julia Jueza" });
  await expect(listed).toContainText("Jurado: Robot Sumo 3 kg");
  await expectNoAxeViolations(organiserPage);
  await shoot(organiserPage, "judge-granted", team);

  await listed.getByRole("button", { name: /Quitar/ }).click();
  await okAlert(organiserPage, "Rol retirado.");
  await expect(team.getByRole("listitem").filter({ hasText: "Julia Jueza" })).toHaveCount(0);
  await organiserContext.close();
  await judgeContext.close();
});
