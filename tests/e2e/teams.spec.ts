// Teams register themselves (issue 38, points 2 and 3; decision 052) in a real browser at 360 px:
// a member registers a team in a category of a competition, a second member opens the invitation
// link (signing in first and coming back), an adult confirms as coach, and the event's organiser
// sees the list and approves the team. axe on every page; screenshots at 360 and 1280 px go to
// SHOTS_DIR when it is set.
import type { Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  publishEvent,
  shoot,
  signInAdmin,
  signInWithDevProvider,
  test,
  workerBaseUrl,
  okAlert,
  signInAdminOnPhone,
} from "./fixtures";

test("a member registers a team, a second joins by its link, a coach confirms, and the organiser approves it", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdminOnPhone(page);
  const origin = new URL(workerBaseUrl()).origin;
  const name = `Clash Robotics ${Math.random().toString(16).slice(2, 6)}`;
  const eventId = await publishEvent(page, name, {
    startsAt: new Date("2037-12-06T23:00:00Z"),
    descripcion: "La competencia de robótica de la comunidad.",
  });
  const category = {
    intent: "addCategory",
    nombre: "Minisumo Colegios",
    nivel: "secundaria",
    minimo: "2",
    maximo: "3",
    entrenador: "",
    reglas: "Robot autónomo de 500 g.",
    peso: "500",
    tamano: "10",
    cupo: "8",
    cuota: "",
    fechaCierre: "2037-11-30",
    horaCierre: "18:00",
    formato: "llaves",
  };
  const made = await page.request.post(`/admin/eventos/${eventId}/categorias`, {
    form: category,
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(made.status()).toBe(302);

  // The organiser of this event, given the role by the admin on the event's page.
  const organiserContext = await browser.newContext({ baseURL });
  const organiserPage = await organiserContext.newPage();
  const organiser = await createMember(organiserPage, { nombreCompleto: "Olga Organiza" });
  await page.goto(`/detalles/${eventId}`);
  // The category's flash, set by the post above, shows on this first page.
  await okAlert(page, "Categoría agregada.");
  const staff = page.getByRole("region", { name: "Personal del evento" });
  await staff.getByLabel("Correo del miembro").fill(organiser.email);
  await staff.getByLabel("Rol").selectOption({ label: "Organización del evento" });
  await staff.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(page, "Rol otorgado.");

  // The captain, on a phone: from the competition's page to the team's registration.
  const captainContext = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 780 },
  });
  const captainPage = await captainContext.newPage();
  await createMember(captainPage, {
    nombreCompleto: "Ana Quispe Mamani",
    fechaNacimiento: "2010-05-02",
  });
  await captainPage.goto(`/detalles/${eventId}#categorias`);
  const categories = captainPage.getByRole("region", { name: /^Categorías/ });
  await categories.getByRole("link", { name: "Inscribir un equipo" }).click();
  await expect(captainPage.getByRole("heading", { level: 1 })).toHaveText("Inscribir un equipo");
  await captainPage.getByLabel("Nombre del equipo").fill("Los Cóndores");
  await captainPage.getByLabel("Colegio o universidad").fill("Colegio San Calixto");
  await captainPage.getByLabel("Ciudad").fill("La Paz");
  await captainPage.getByLabel("Nombre del robot").fill("Illimani");
  await expectNoAxeViolations(captainPage);
  await shoot(captainPage, "team-registration");
  await captainPage.getByRole("button", { name: "Inscribir equipo" }).click();
  await okAlert(captainPage, /Equipo inscrito/);
  await expect(captainPage.getByRole("heading", { level: 1 })).toHaveText("Los Cóndores");
  const teamUrl = captainPage.url();
  const link = await captainPage.locator(".team-invite-link a").textContent();
  expect(link).toMatch(/\/equipos\/unirse\/[0-9A-Z]{16}$/);

  // A second member opens the link before signing in: sent to sign in, and back.
  const memberContext = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 780 },
  });
  const memberPage = await memberContext.newPage();
  await memberPage.goto(new URL(link!).pathname);
  await expect(memberPage).toHaveURL(/\/login\?redirectTo=/);
  await signInWithDevProvider(memberPage, { email: `beto-${Date.now()}@ayllu.test`, name: "Beto" });
  // A first sign-in completes the profile first, then comes back to the invitation.
  if (new URL(memberPage.url()).pathname === "/aditionaldata") {
    await memberPage.getByLabel("Nombre completo").fill("Beto Choque Rojas");
    await memberPage.getByLabel("Fecha de nacimiento").fill("2009-08-10");
    await memberPage.getByLabel("País").fill("Bolivia");
    await memberPage.getByLabel("Ciudad").fill("La Paz");
    await memberPage.getByLabel("Género").selectOption("Masculino");
    await memberPage
      .getByRole("button", { name: /Guardar|Continuar|Enviar/ })
      .first()
      .click();
    await memberPage.waitForURL((url) => url.pathname !== "/aditionaldata");
    await expect(memberPage).toHaveURL(/\/equipos\/unirse\//);
    await okAlert(memberPage, /Datos adicionales guardados/);
  }
  await expect(memberPage.getByRole("heading", { level: 1 })).toHaveText(
    "Invitación al equipo «Los Cóndores»",
  );
  await expectNoAxeViolations(memberPage);
  await memberPage.getByRole("button", { name: "Unirme al equipo" }).click();
  await okAlert(memberPage, "Te uniste al equipo.");
  await expect(memberPage.getByRole("region", { name: "Integrantes" })).toContainText(
    "Beto Choque Rojas",
  );

  // The coach, an adult, confirms with the consent text.
  const coachContext = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  const coachPage = await coachContext.newPage();
  await createMember(coachPage, {
    nombreCompleto: "Carla Entrenadora",
    fechaNacimiento: "1985-06-15",
  });
  await coachPage.goto(new URL(link!).pathname);
  await coachPage.getByLabel(/Confirmo que soy mayor de edad/).check();
  await coachPage.getByRole("button", { name: "Confirmo que soy el entrenador" }).click();
  await okAlert(coachPage, "Confirmaste que eres el entrenador del equipo.");
  await expect(coachPage.getByRole("heading", { level: 2, name: "Equipo completo" })).toBeVisible();

  // The team's page as its captain sees it.
  await captainPage.goto(teamUrl);
  await expect(captainPage.getByRole("region", { name: "Integrantes" })).toContainText(
    "Carla Entrenadora (confirmado)",
  );
  await expectNoAxeViolations(captainPage);
  await shoot(captainPage, "team-page");

  // The public page: competitors as 'Ana Q.' (first name, first surname's initial), never full names.
  const visitorContext = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 780 },
  });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/detalles/${eventId}#categorias`);
  const publicList = visitor.getByRole("region", { name: /^Categorías/ });
  await expect(publicList).toContainText("Los Cóndores");
  await expect(publicList).toContainText("Ana Q.");
  await expect(publicList).not.toContainText("Mamani");
  await expect(publicList).not.toContainText("Quispe");
  await expectNoAxeViolations(visitor);
  await shoot(
    visitor,
    "team-competition-page",
    publicList
      .getByRole("article", { name: "Minisumo Colegios" })
      .locator(".category-rules")
      .first(),
  );

  // The organiser: every team, with full names, and approves it.
  await organiserPage.setViewportSize({ width: 360, height: 780 });
  await organiserPage.goto(`/admin/eventos/${eventId}/equipos`);
  await expect(organiserPage.getByRole("heading", { level: 1 })).toHaveText(`Equipos: ${name}`);
  await expect(organiserPage.locator(".team-admin-list")).toContainText("Ana Quispe Mamani");
  await expectNoAxeViolations(organiserPage);
  await organiserPage.getByRole("button", { name: "Aprobar Los Cóndores" }).click();
  await okAlert(organiserPage, "Equipo aprobado.");
  await expect(organiserPage.locator(".team-admin-list")).toContainText("Aprobado");
  await shoot(organiserPage, "team-admin-list");

  for (const context of [
    organiserContext,
    captainContext,
    memberContext,
    coachContext,
    visitorContext,
  ])
    await context.close();
  // The server is shared with the other files of this worker: the event (and its teams) go.
  const reply = await page.request.post("/admin", {
    form: { intent: "delete", eventId },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(reply.status()).toBe(302);
});

test("a full category puts a new team on its waiting list, and the first place that frees is its own", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const eventId = await publishEvent(
    page,
    `Clash Robotics ${Math.random().toString(16).slice(2, 6)}`,
    {
      startsAt: new Date("2037-12-06T23:00:00Z"),
    },
  );
  const made = await page.request.post(`/admin/eventos/${eventId}/categorias`, {
    form: {
      intent: "addCategory",
      nombre: "Seguidor de línea",
      nivel: "universidad",
      minimo: "1",
      maximo: "3",
      entrenador: "",
      reglas: "",
      peso: "",
      tamano: "",
      cupo: "1",
      cuota: "",
      fechaCierre: "2037-11-30",
      horaCierre: "18:00",
      formato: "tiempo",
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(made.status()).toBe(302);

  async function captain(name: string) {
    const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
    const phone = await context.newPage();
    await createMember(phone, { nombreCompleto: name, fechaNacimiento: "2001-05-02" });
    await phone.goto(`/detalles/${eventId}#categorias`);
    return { context, phone };
  }
  async function register(phone: Page, team: string, button: string) {
    await phone.getByLabel("Nombre del equipo").fill(team);
    await phone.getByLabel("Colegio o universidad").fill("Universidad Mayor de San Andrés");
    await phone.getByLabel("Ciudad").fill("La Paz");
    await phone.getByLabel("Nombre del robot").fill(`${team} 1`);
    await phone.getByRole("button", { name: button }).click();
  }

  const first = await captain("Ana Quispe Mamani");
  // The page's first button (decision 077), the category's own below it.
  await first.phone.getByRole("link", { name: "Inscribir un equipo" }).first().click();
  await register(first.phone, "Los Cóndores", "Inscribir equipo");
  await okAlert(first.phone, /Equipo inscrito/);
  const firstUrl = first.phone.url();

  // The category is full: the second captain is told before sending, and the team waits.
  const second = await captain("Beto Choque Rojas");
  await second.phone
    .getByRole("link", { name: "Anotar un equipo en la lista de espera" })
    .first()
    .click();
  await expect(second.phone.locator(".team-waiting-note")).toContainText(
    "tu equipo quedará en la lista de espera",
  );
  await expectNoAxeViolations(second.phone);
  await register(second.phone, "Los Pumas", "Inscribir en la lista de espera");
  await okAlert(second.phone, /lista de espera/);
  await expect(second.phone.locator(".team-status")).toHaveText("En lista de espera");
  await expect(second.phone.locator(".team-waiting-note")).toContainText(
    "el primero de la lista de espera",
  );
  await expectNoAxeViolations(second.phone);
  await shoot(second.phone, "team-waiting");
  const secondUrl = second.phone.url();

  // Anyone reads the list on the competition's page.
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto(`/detalles/${eventId}#categorias`);
  // The category's flash, set by the post above, shows on this first page.
  await okAlert(page, "Categoría agregada.");
  const card = page.getByRole("article", { name: "Seguidor de línea" });
  await expect(card).toContainText("Lista de espera (1)");
  await expect(card).toContainText("Sin lugares: 1 equipo espera");
  await expectNoAxeViolations(page);
  await shoot(page, "team-waiting-list", card.locator(".category-teams").last());

  // The first team withdraws: the place is the waiting team's.
  await first.phone.goto(firstUrl);
  await first.phone.getByRole("link", { name: "Retirar el equipo" }).click();
  await expect(first.phone.getByRole("button", { name: "Sí, retirar el equipo" })).toBeVisible();
  await first.phone.getByRole("button", { name: "Sí, retirar el equipo" }).click();
  await okAlert(first.phone, /Equipo retirado/);
  await second.phone.goto(secondUrl);
  await expect(second.phone.locator(".team-status")).toHaveText("Pendiente de aprobación");
  await expect(second.phone.locator(".team-waiting-note")).toHaveCount(0);

  await first.context.close();
  await second.context.close();
  const reply = await page.request.post("/admin", {
    form: { intent: "delete", eventId },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(reply.status()).toBe(302);
});
