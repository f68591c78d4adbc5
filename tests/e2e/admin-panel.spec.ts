// The admin panel built for the day: a row of 'Eventos Publicados' has one button and a menu of
// the rest, used with the keyboard; the events are searched by title; 'Crear enlace' empties its
// form once a link is made; the role form offers 'Evento' only for roles of one event, also
// without scripts; the users' search box and list agree after a change on a member.
import {
  createMember,
  E2E_ADMIN,
  expect,
  expectNoAxeViolations,
  okAlert,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  untilHydrated,
  workerBaseUrl,
} from "./fixtures";

test("a row's menu opens and closes with the keyboard, Escape returns focus, and the search finds the event", async ({
  page,
}) => {
  await signInAdmin(page);
  const name = `Menú por teclado ${Date.now()}`;
  await publishEvent(page, name);
  await page.goto("/admin");
  await untilHydrated(page);
  const region = page.getByRole("region", { name: "Eventos Publicados" });
  await region.getByLabel("Buscar por título").fill(name);
  await region.getByRole("button", { name: "Buscar" }).click();
  await expect(page).toHaveURL(/buscarEvento=/);
  const rows = region.getByRole("listitem").filter({ has: page.locator(".row-menu") });
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText(name);
  // One button in the row; the others wait in the menu.
  await expect(
    row.getByRole("link", { name: `Gestionar ${name}: equipo y horario de puerta` }),
  ).toBeVisible();
  await expect(row.getByRole("link", { name: `Eliminar ${name}` })).toBeHidden();

  const summary = row.locator("summary");
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("link", { name: `Galería de ${name}` })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(row.getByRole("link", { name: `Participantes de ${name}` })).toBeFocused();
  await expectNoAxeViolations(page);
  await shoot(page, "admin-menu-abierto", region);
  await page.keyboard.press("Escape");
  await expect(row.getByRole("link", { name: `Galería de ${name}` })).toBeHidden();
  await expect(summary).toBeFocused();
  // Each target is at least 24 px either way.
  for (const target of [summary, row.getByRole("link", { name: /^Gestionar / })]) {
    const box = (await target.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }

  // Space opens it too, and an entry is followed with Enter.
  await page.keyboard.press("Space");
  await row.getByRole("link", { name: `Galería de ${name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("dialog", { name: `Galería de Imágenes para: ${name}` }),
  ).toBeVisible();
  // The list behind the dialog is still the one searched.
  await expect(page).toHaveURL(/buscarEvento=.*galeria=/);
});

test("the panel's events page and search work without scripts", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: workerBaseUrl(), javaScriptEnabled: false });
  const page = await context.newPage();
  await signInAdmin(page);
  const name = `Sin scripts ${Date.now()}`;
  await publishEvent(page, name);
  await page.goto("/admin");
  const region = page.getByRole("region", { name: "Eventos Publicados" });
  await region.getByLabel("Buscar por título").fill(name);
  await region.getByRole("button", { name: "Buscar" }).click();
  const row = region.getByRole("listitem").filter({ hasText: name });
  await row.locator("summary").click();
  await row.getByRole("link", { name: `Editar ${name}` }).click();
  await expect(page.getByRole("heading", { name: "Editar Evento" })).toBeVisible();
  await context.close();
});

test("'Crear enlace' empties 'Para quién' once the link is made and shows the link", async ({
  page,
}) => {
  await signInAdmin(page);
  const name = `Enlace que se vacía ${Date.now()}`;
  const eventId = await publishEvent(page, name);
  await page.goto(`/admin/eventos/${eventId}/horario`);
  await untilHydrated(page);
  const links = page.getByRole("region", { name: "Enlaces de registro" });
  await links.getByLabel("Para quién").fill("Rosa Voluntaria");
  await links.getByRole("button", { name: "Crear enlace" }).click();
  await expect(links.getByText("Enlace para «Rosa Voluntaria» creado.")).toBeVisible();
  await expect(links.getByLabel("Enlace", { exact: true })).toHaveValue(/^http/);
  await expect(links.getByLabel("Para quién")).toHaveValue("");
  await expect(links.locator(".staff-links-list li")).toHaveCount(1);
  await expectNoAxeViolations(page);
  await shoot(page, "admin-enlace-creado", links);
  // A second click asks for a name again instead of making a second link.
  await links.getByRole("button", { name: "Crear enlace" }).click();
  await expect(links.locator(".staff-links-list li")).toHaveCount(1);

  // 'Dar rol' in the event's staff empties the member's e-mail once the role is given.
  await page.goto(`/admin/eventos/${eventId}/personal`);
  await untilHydrated(page);
  const team = page.getByRole("region", { name: "Personal del evento" });
  await team.getByLabel("Correo del miembro").fill(E2E_ADMIN);
  await team.getByLabel("Rol").selectOption({ label: "Registro de entrada" });
  await team.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(page, "Rol otorgado.");
  await expect(team.getByLabel("Correo del miembro")).toHaveValue("");
});

test("the role form offers 'Evento' only for a role of one event, with and without scripts; the users' search stays with its list", async ({
  browser,
  page,
}) => {
  const memberContext = await browser.newContext({ baseURL: workerBaseUrl() });
  const member = await createMember(await memberContext.newPage(), {
    nombreCompleto: `Tania Tesorera ${Date.now()}`,
  });
  await memberContext.close();
  await signInAdmin(page);
  await page.goto("/admin");
  await untilHydrated(page);
  const users = page.getByRole("region", { name: "Usuarios" });
  await users.getByLabel("Buscar por nombre o correo").fill(member.nombreCompleto);
  await users.getByRole("button", { name: "Buscar" }).click();
  await expect(users.locator(".user-row")).toHaveCount(1);
  await users.locator(".user-row").click();
  const dialog = page.getByRole("dialog", { name: "Detalles del Usuario" });
  await expect(dialog).toBeVisible();
  const kind = dialog.getByLabel("Rol", { exact: true });
  await kind.selectOption({ label: "Organización del evento" });
  await expect(dialog.getByLabel("Evento", { exact: true })).toBeVisible();
  await kind.selectOption({ label: "Tesorería" });
  await expect(dialog.getByLabel("Evento", { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shoot(page, "admin-rol-tesoreria", dialog.locator(".role-grant-form"));
  await dialog.getByRole("button", { name: "Dar rol" }).click();
  await okAlert(page, "Rol otorgado.");
  await expect(dialog.locator(".role-list")).toContainText("Tesorería");
  // Back on the panel as it was: the search box and the list it filtered.
  await expect(users.getByLabel("Buscar por nombre o correo")).toHaveValue(member.nombreCompleto);
  await expect(users.locator(".user-row")).toHaveCount(1);

  // Without scripts the stylesheet hides the field for a site-wide role.
  const bare = await browser.newContext({ baseURL: workerBaseUrl(), javaScriptEnabled: false });
  const barePage = await bare.newPage();
  await signInAdmin(barePage);
  await barePage.goto(page.url());
  const bareDialog = barePage.getByRole("dialog", { name: "Detalles del Usuario" });
  const bareKind = bareDialog.getByLabel("Rol", { exact: true });
  await bareKind.selectOption({ label: "Organización del evento" });
  await expect(bareDialog.getByLabel("Evento", { exact: true })).toBeVisible();
  await bareKind.selectOption({ label: "Edición de notas y proyectos" });
  await expect(bareDialog.getByLabel("Evento", { exact: true })).toBeHidden();
  await bare.close();
});
