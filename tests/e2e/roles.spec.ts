// Roles in a real browser (issue 32): an admin gives a member the organisation of an event from
// the event's page ('Personal del evento'); the member finds it in the user menu by keyboard, opens
// the event's management page and gives door staff; the admin reads it in the audit log and
// filters it. axe on the event page with its team, the management page and the audit log.
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
  workerBaseUrl,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

test("an admin makes a member organiser of one event; the organiser manages it and gives door staff; the log says so", async ({
  browser,
  page,
}) => {
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  const origin = new URL(workerBaseUrl()).origin;
  const name = `Feria con equipo ${Date.now()}`;
  const published = await page.request.post("/admin", {
    headers: { Origin: origin },
    form: {
      intent: "publish",
      nombreEvento: name,
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      fechaEvento: "2036-09-14",
      horaEvento: "18:00",
      imagenEnlace: `${origin}/demo/vision.svg`,
      ubicacionEspecifica: "",
      capacity: "",
      descripcion: "Con equipo.",
    },
  });
  expect(published.ok()).toBe(true);
  const panel = await (
    await page.request.get(`/admin?buscarEvento=${encodeURIComponent(name)}`)
  ).text();
  const link = new RegExp(`<a[^>]*aria-label="Participantes de ${name}"[^>]*>`).exec(panel)?.[0];
  const eventId = /href="\/admin\/eventos\/([0-9a-f-]{36})\/participantes"/.exec(link ?? "")?.[1];
  expect(eventId).toBeTruthy();

  const organiserContext = await browser.newContext({ baseURL: workerBaseUrl() });
  const organiserPage = await organiserContext.newPage();
  const organiser = await createMember(organiserPage, { nombreCompleto: "Olga Organiza" });
  const doorContext = await browser.newContext({ baseURL: workerBaseUrl() });
  const door = await createMember(await doorContext.newPage(), { nombreCompleto: "Pedro Puerta" });

  // The admin, on the event's page.
  await page.goto(`/detalles/${eventId}`);
  const team = page.getByRole("region", { name: "Personal del evento" });
  await team.getByLabel("Correo del miembro").fill(organiser.email);
  await team.getByLabel("Rol").selectOption({ label: "Organización del evento" });
  await team.getByRole("button", { name: "Dar rol" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Rol otorgado.");
  await page.getByRole("alertdialog").getByRole("button").first().click();
  await expect(team.getByText("Olga Organiza", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // The organiser: the user menu by keyboard, then the management page.
  await organiserPage.goto("/inicio");
  const menuButton = organiserPage.locator(".user-menu button").first();
  await menuButton.focus();
  await organiserPage.keyboard.press("Enter");
  const entry = organiserPage.getByRole("menuitem", { name: "Mis eventos a cargo" });
  await expect(entry).toBeVisible();
  await expect(organiserPage.getByRole("menuitem", { name: "Registro de entrada" })).toBeVisible();
  await organiserPage.keyboard.press("Escape");
  await organiserPage.goto(`/admin/eventos/${eventId}`);
  await expect(organiserPage.getByRole("heading", { level: 1 })).toHaveText(`Gestionar: ${name}`);
  // The event's staff is a section of its own, one tap away in the page's menu.
  await organiserPage
    .getByRole("navigation", { name: "Gestionar el evento" })
    .getByRole("link", { name: "Personal", exact: true })
    .click();
  await expect(organiserPage).toHaveURL(new RegExp(`/admin/eventos/${eventId}/personal$`));
  await expectNoAxeViolations(organiserPage);
  const manageTeam = organiserPage.getByRole("region", { name: "Personal del evento" });
  // An organiser gives door staff only.
  await expect(manageTeam.getByLabel("Rol").locator("option")).toHaveText(["Registro de entrada"]);
  await manageTeam.getByLabel("Correo del miembro").fill(door.email);
  await manageTeam.getByRole("button", { name: "Dar rol" }).click();
  await expect(organiserPage.getByRole("alertdialog")).toContainText("Rol otorgado.");
  await organiserPage.getByRole("alertdialog").getByRole("button").first().click();
  await expect(manageTeam.getByText("Pedro Puerta", { exact: true })).toBeVisible();
  // /admin stays for admins.
  await organiserPage.goto("/admin");
  await expect(organiserPage).toHaveURL(/\/inicio$/);

  // The admin reads it in the log.
  await page.goto("/admin/auditoria");
  await page.getByLabel("Persona").fill("Olga");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page.getByText(/Otorgó Registro de entrada de «Feria con equipo/)).toBeVisible();
  await expectNoAxeViolations(page);
  await organiserContext.close();
  await doorContext.close();
});
