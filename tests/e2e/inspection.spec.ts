// At the door of a competition (issue 38, point 4; decision 055) in a real browser at 360 px:
// the members of an approved team find their pass in 'Mis entradas', door staff check them in by
// their codes, open the inspection screen from the door, record a failed inspection with notes
// and then a passed one, and the team competes; its captain reads it on the team's page. axe on
// every page; screenshots of the inspection screen at 360 and 1280 px go to SHOTS_DIR when set.
import type { Browser, Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  workerBaseUrl,
  laPaz,
  okAlert,
} from "./fixtures";

async function phone(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  return { context, page: await context.newPage() };
}

test("door staff check a team in by its members' passes, inspect its robot (failed, then passed) and the team competes", async ({
  page,
  browser,
  baseURL,
}) => {
  const origin = new URL(workerBaseUrl()).origin;
  const post = (p: Page, url: string, form: Record<string, string>) =>
    p.request.post(url, { form, headers: { Origin: origin }, maxRedirects: 0 });
  await signInAdmin(page);
  const name = `Clash Robotics ${Math.random().toString(16).slice(2, 6)}`;
  // The event starts in half an hour (the door is open); the category two hours from now.
  const eventId = await publishEvent(page, name);
  const start = laPaz(120);
  const deadline = laPaz(90);
  const made = await post(page, `/admin/eventos/${eventId}/categorias`, {
    intent: "addCategory",
    nombre: "Seguidor de línea",
    nivel: "universidad",
    minimo: "2",
    maximo: "3",
    entrenador: "no",
    reglas: "Robot autónomo de 1 kg como máximo.",
    peso: "1000",
    tamano: "25",
    cupo: "",
    cuota: "",
    fechaCierre: deadline.fecha,
    horaCierre: deadline.hora,
    fechaInicio: start.fecha,
    horaInicio: start.hora,
    formato: "tiempo",
  });
  expect(made.status()).toBe(302);

  // Door staff, given the role on the event's page.
  const door = await phone(browser, baseURL);
  const doorPerson = await createMember(door.page, { nombreCompleto: "Pedro Puerta" });
  await page.goto(`/detalles/${eventId}`);
  await okAlert(page, "Categoría agregada.");
  const staff = page.getByRole("region", { name: "Personal del evento" });
  await staff.getByLabel("Correo del miembro").fill(doorPerson.email);
  await staff.getByLabel("Rol").selectOption({ label: "Registro de entrada" });
  await staff.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(page, "Rol otorgado.");
  const categoryId = /id="categoria-([0-9a-f-]{36})"/.exec(await page.content())?.[1];
  expect(categoryId).toBeTruthy();

  // A team of two registers and the admin approves it (the pages of decision 052).
  const captain = await phone(browser, baseURL);
  await createMember(captain.page, { nombreCompleto: "Ana Quispe Mamani" });
  const created = await post(captain.page, `/equipos/nuevo?categoria=${categoryId}`, {
    categoryId: categoryId!,
    nombre: "Los Cóndores",
    colegio: "Universidad Mayor de San Andrés",
    ciudad: "La Paz",
    robot: "Illimani",
  });
  expect(created.status()).toBe(302);
  const teamPath = new URL(created.headers().location!, origin).pathname;
  const teamId = teamPath.split("/").pop()!;
  await captain.page.goto(teamPath);
  const link = await captain.page.locator(".team-invite-link a").textContent();
  const second = await phone(browser, baseURL);
  await createMember(second.page, { nombreCompleto: "Beto Choque Rojas" });
  expect((await post(second.page, new URL(link!).pathname, { intent: "join" })).status()).toBe(302);
  const approved = await post(page, `/admin/eventos/${eventId}/equipos`, {
    intent: "review",
    teamId,
    decision: "aprobar",
    visto: "pending",
  });
  expect(approved.status()).toBe(302);

  // Each member finds their pass in 'Mis entradas' without having registered for the event.
  const codes: string[] = [];
  for (const member of [captain.page, second.page]) {
    await member.goto("/mis-entradas");
    await expect(member.getByText("Compites con «Los Cóndores»: este es tu pase.")).toBeVisible();
    codes.push((await member.locator(".checkin-pass-code").first().textContent())!);
  }
  await expectNoAxeViolations(second.page);

  // At the door, on a phone: the first member is checked in by her code.
  await door.page.goto(`/admin/eventos/${eventId}/registro`);
  await door.page.getByLabel("Código de la persona").fill(codes[0]!);
  await door.page.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(
    door.page.getByRole("heading", { level: 2, name: "Ana Quispe Mamani" }),
  ).toBeVisible();
  await door.page
    .getByRole("link", { name: "Equipos de la competencia e inspección de robots" })
    .click();
  await expect(door.page.getByRole("heading", { level: 1 })).toHaveText(`Inspección: ${name}`);
  const card = door.page.locator(`#equipo-${teamId}`);
  await expect(card).toContainText("Ana Quispe Mamani — ✓ registró entrada");
  await expect(card).toContainText("Beto Choque Rojas — sin registrar");
  await expect(card).toContainText("Equipo sin registrar");
  await expect(card).toContainText("Robot sin inspeccionar");
  await expectNoAxeViolations(door.page);

  // The robot fails: too heavy. The notes are required for that.
  await card.getByRole("radio", { name: "No pasó" }).check();
  await card.getByLabel("Notas (obligatorias si no pasó)").fill("Pesa 1,2 kg: el máximo es 1 kg.");
  await card.getByRole("button", { name: "Registrar inspección de Los Cóndores" }).click();
  await okAlert(door.page, /el robot no está aprobado/);
  await expect(card).toContainText("Robot no aprobado");
  await expect(card).toContainText("Pesa 1,2 kg: el máximo es 1 kg.");

  // The second member comes in; the team lightens the robot and passes.
  await door.page.goto(`/admin/eventos/${eventId}/registro`);
  await door.page.getByLabel("Código de la persona").fill(codes[1]!);
  await door.page.getByRole("button", { name: "Registrar", exact: true }).click();
  await expect(
    door.page.getByRole("heading", { level: 2, name: "Beto Choque Rojas" }),
  ).toBeVisible();
  // The phone shows the check-in at once and sends it; the door leaves once it says it is sent.
  await expect(door.page.locator(".admin-checkin-status")).toContainText("Nada pendiente");
  await door.page.goto(`/admin/eventos/${eventId}/inspeccion`);
  await expect(card).toContainText("Equipo registrado");
  await card.getByRole("radio", { name: "Pasó", exact: true }).check();
  await card.getByRole("button", { name: "Registrar inspección de Los Cóndores" }).click();
  await okAlert(door.page, "Inspección registrada: el robot está aprobado.");
  await expect(card).toContainText("Robot aprobado");
  await expect(card).toContainText("Compite");
  await expect(door.page.getByText("Compiten 1 de 1 equipo aprobado.")).toBeVisible();
  await card.getByText("Historial de inspecciones (2)").click();
  await expect(card.locator(".door-history")).toContainText("No aprobado, por Pedro Puerta");
  await expectNoAxeViolations(door.page);
  await expect(card.getByRole("radio", { name: "Pasó", exact: true })).not.toBeChecked();
  // The whole page from its top (the form's redirect scrolled to the team).
  await door.page.evaluate(() => window.scrollTo(0, 0));
  await shoot(door.page, "inspection");

  // The captain reads it on the team's page.
  await captain.page.goto(teamPath);
  const atDoor = captain.page.getByRole("region", { name: "En la puerta" });
  await expect(atDoor).toContainText("2 de 2 registraron su entrada");
  await expect(atDoor).toContainText(
    "El equipo compite: está registrado y su robot pasó la inspección.",
  );
  await expectNoAxeViolations(captain.page);
  await shoot(captain.page, "team-at-door", atDoor);

  for (const context of [door.context, captain.context, second.context]) await context.close();
  const reply = await post(page, "/admin", { intent: "delete", eventId });
  expect(reply.status()).toBe(302);
});
