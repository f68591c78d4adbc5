// A newcomer's journey (§2 Top navigation, Login, Additional data, Profile) in a real browser,
// against the real server, signing in through the real development provider.
import type { Page } from "@playwright/test";
import {
  createMember,
  expect,
  expectNoAxeViolations,
  fillProfileFields,
  freshEmail,
  memberData,
  signInWithDevProvider,
  test,
} from "./fixtures";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SCREENS = [
  { name: "escritorio", viewport: DESKTOP },
  { name: "teléfono", viewport: PHONE },
];

/** The value shown next to `term` in the profile's read view. */
function detail(page: Page, term: string) {
  return page
    .locator(".detail", { has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) })
    .locator("dd");
}

/** A section link in the top navigation (on a phone it may be collapsed, hence includeHidden). */
function navLink(page: Page, name: string) {
  return page
    .getByRole("navigation", { name: "Secciones de la página de inicio", includeHidden: true })
    .getByRole("link", { name, exact: true, includeHidden: true });
}

for (const screen of SCREENS) {
  test(`a newcomer signs in, completes the additional data and edits the profile (${screen.name})`, async ({
    page,
    consoleErrors,
  }) => {
    // The server answers a form with mistakes with 400, which Chromium notes on the console.
    consoleErrors.allow(
      /status of 400 \(Bad Request\) \(http:\/\/localhost:\d+\/aditionaldata\.data\)$/,
    );
    await page.setViewportSize(screen.viewport);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Ayllu" })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Iniciar Sesión", exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Iniciar Sesión" })).toBeVisible();
    await expect(page.getByText("Inicia sesión con tu cuenta de Google")).toBeVisible();
    await expectNoAxeViolations(page);

    await signInWithDevProvider(page, { email: freshEmail(), name: "ana.dev" });
    await expect(page).toHaveURL(/\/aditionaldata$/);
    await expect(page.getByRole("heading", { level: 1, name: "Datos adicionales" })).toBeVisible();
    await expectNoAxeViolations(page);

    const data = memberData({ habilidades: "" });
    await fillProfileFields(page, { ...data, pais: "" });
    await page.getByRole("button", { name: "Guardar", exact: true }).click();
    const pais = page.getByLabel("País");
    await expect(page.getByText("Escribe tu país.")).toBeVisible();
    await expect(pais).toHaveAttribute("aria-invalid", "true");
    await expect(pais).toHaveAccessibleDescription(/Escribe tu país\./);
    await expect(pais).toBeFocused();
    await expect(page.getByLabel("Nombre completo")).toHaveValue(data.nombreCompleto);
    await expectNoAxeViolations(page);

    await pais.fill(data.pais);
    await page.getByRole("button", { name: "Guardar", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    const alert = page.getByRole("alertdialog");
    await expect(alert).toContainText("Datos adicionales guardados con éxito!");
    await expect(alert.getByRole("button", { name: "OK" })).toBeFocused();
    await expectNoAxeViolations(page);
    await alert.getByRole("button", { name: "OK" }).click();
    await expect(alert).toBeHidden();

    // The header now shows the member's full name; Perfil is one of its items.
    const menuButton = page.getByRole("button", { name: data.nombreCompleto });
    await expect(menuButton).toBeVisible();
    await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toHaveCount(0);
    await menuButton.click();
    await page.getByRole("menuitem", { name: "Perfil" }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "Mi perfil" })).toBeVisible();
    await expect(detail(page, "Nombre de usuario")).toHaveText("ana.dev");
    await expect(detail(page, "Nombre registrado")).toHaveText(data.nombreCompleto);
    await expect(detail(page, "Fecha de nacimiento")).toHaveText("21 de marzo de 1994");
    await expect(detail(page, "País")).toHaveText("Bolivia");
    await expect(detail(page, "Ciudad")).toHaveText("Cochabamba");
    await expect(detail(page, "Género")).toHaveText("Femenino");
    await expect(detail(page, "Habilidades")).toHaveText("No especificadas");
    await expect(
      page.getByRole("heading", { level: 2, name: "Eventos Participando" }),
    ).toBeVisible();
    await expect(page.getByText("No estás participando en ningún evento aún.")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Editar Perfil" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Editar Perfil" })).toBeVisible();
    await expect(page.getByLabel("Ciudad")).toHaveValue("Cochabamba");
    await expect(page.getByLabel("Nombre completo")).not.toHaveAttribute("required");
    await expectNoAxeViolations(page);
    await fillProfileFields(page, { ciudad: "Sucre", habilidades: "Arduino, impresión 3D" });
    await page.getByRole("button", { name: "Guardar Cambios" }).click();
    await expect(alert).toContainText("Perfil actualizado con éxito!");
    await alert.getByRole("button", { name: "OK" }).click();
    await expect(alert).toBeHidden();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "Mi perfil" })).toBeVisible();
    await expect(detail(page, "Ciudad")).toHaveText("Sucre");
    await expect(detail(page, "Habilidades")).toHaveText("Arduino, impresión 3D");

    // 'Cancelar' leaves the edit view and keeps what was saved.
    await page.getByRole("link", { name: "Editar Perfil" }).click();
    await fillProfileFields(page, { ciudad: "Tarija", habilidades: "Nada de esto" });
    await page.getByRole("link", { name: "Cancelar" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Mi perfil" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Guardar Cambios" })).toHaveCount(0);
    await expect(detail(page, "Ciudad")).toHaveText("Sucre");
    await page.reload();
    await expect(detail(page, "Ciudad")).toHaveText("Sucre");
    await expect(detail(page, "Habilidades")).toHaveText("Arduino, impresión 3D");

    // A member who is signed in and has a profile is sent on from /login.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
    await expect(menuButton).toBeVisible();
  });
}

test("the user menu works with the keyboard alone, and signing out ends the session", async ({
  page,
}) => {
  const member = await createMember(page);
  await page.goto("/profile");
  const menuButton = page.getByRole("button", { name: member.nombreCompleto });
  const menu = page.getByRole("menu", { name: member.nombreCompleto });
  const perfil = page.getByRole("menuitem", { name: "Perfil" });
  const cerrar = page.getByRole("menuitem", { name: "Cerrar Sesión" });

  for (
    let presses = 0;
    presses < 20 && !(await menuButton.evaluate((el) => el === document.activeElement));
    presses++
  ) {
    await page.keyboard.press("Tab");
  }
  await expect(menuButton).toBeFocused();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeHidden();

  await page.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await expect(menuButton).toHaveAttribute("aria-expanded", "true");
  await expect(perfil).toBeFocused();
  await expect(menu.getByRole("menuitem")).toHaveText(["Perfil", "Mis entradas", "Cerrar Sesión"]);
  await expectNoAxeViolations(page);

  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Mis entradas" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(cerrar).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(perfil).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(cerrar).toBeFocused();
  await page.keyboard.press("Home");
  await expect(perfil).toBeFocused();
  await page.keyboard.press("End");
  await expect(cerrar).toBeFocused();

  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");

  await page.keyboard.press("ArrowDown");
  await expect(menu).toBeVisible();
  await expect(perfil).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menuButton).toBeFocused();

  await page.keyboard.press("ArrowUp");
  await expect(cerrar).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  // A click outside closes it.
  await page.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await page.getByRole("heading", { level: 1, name: "Mi perfil" }).click();
  await expect(menu).toBeHidden();
  await expect(menuButton).toHaveAttribute("aria-expanded", "false");

  // 'Cerrar Sesión', by keyboard.
  await menuButton.focus();
  await page.keyboard.press("Enter");
  await expect(perfil).toBeFocused();
  await page.keyboard.press("End");
  await expect(cerrar).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeVisible();
  await expect(menuButton).toHaveCount(0);

  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Iniciar Sesión" })).toBeVisible();
});

test("the user menu keeps the member's name as its accessible name on a phone", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const member = await createMember(page);
  const menuButton = page.getByRole("button", { name: member.nombreCompleto });
  await expect(menuButton).toBeVisible();
  await menuButton.click();
  await expect(page.getByRole("menu", { name: member.nombreCompleto })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("heading", { level: 1, name: "Ayllu" }).click();
  await expect(page.getByRole("menu")).toBeHidden();
});

/** Whether the link shows the current-item mark (the bar under it, drawn by its ::after). */
function marked(link: ReturnType<typeof navLink>) {
  return link.evaluate((element) => getComputedStyle(element, "::after").content !== "none");
}

test.describe("with motion allowed", () => {
  // Smooth scrolling to a section, as most visitors have it.
  test.use({ reducedMotion: "no-preference" });

  test("the navigation highlights the section in view", async ({ page }) => {
    await page.goto("/");
    await expect(navLink(page, "Home")).toHaveAttribute("aria-current", "location");

    await page.evaluate(() =>
      document.getElementById("articles")?.scrollIntoView({ block: "start" }),
    );
    await expect(navLink(page, "Articles")).toHaveAttribute("aria-current", "location");
    expect(await marked(navLink(page, "Articles"))).toBe(true);
    await expect(navLink(page, "Home")).not.toHaveAttribute("aria-current");
    expect(await marked(navLink(page, "Home"))).toBe(false);
    await expect(page.locator('.home-subnav a[aria-current="location"]')).toHaveCount(1);

    await navLink(page, "Courses").click();
    await expect(navLink(page, "Courses")).toHaveAttribute("aria-current", "location");
    expect(await marked(navLink(page, "Courses"))).toBe(true);
    await expect(page).toHaveURL(/\/#courses$/);
    await expectNoAxeViolations(page);
  });
});

test("on a phone the home's sections stay in their own row, the site's areas behind the menu button", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  // The home's sub-navigation (decision 077): always there, not in the site's menu.
  await expect(navLink(page, "Home")).toBeVisible();
  const toggle = page.getByRole("button", { name: "Menú del sitio" });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  const site = page.getByRole("navigation", { name: "Sitio" });
  await expect(site.getByRole("link", { name: "Notas" })).toBeHidden();

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(site.getByRole("link", { name: "Notas" })).toBeVisible();
  await expect(site.getByRole("button", { name: "Modo liviano" })).toBeVisible();
  await expectNoAxeViolations(page);
  await toggle.click();

  await navLink(page, "Articles").scrollIntoViewIfNeeded();
  await navLink(page, "Articles").click();
  await expect(navLink(page, "Articles")).toHaveAttribute("aria-current", "location");
  await expect(page).toHaveURL(/\/#articles$/);
});

test("the logo scrolls to the top on the home page and goes home elsewhere", async ({ page }) => {
  await page.goto("/");
  await page.evaluate(() =>
    window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }),
  );
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);

  const logo = page.getByRole("link", { name: "Ayllu, inicio" });
  await logo.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(page).toHaveURL(/\/$/);
  await expect(navLink(page, "Home")).toHaveAttribute("aria-current", "location");

  await page.goto("/login");
  await logo.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: "Ayllu" })).toBeVisible();
});

test("an unknown path shows the Spanish 404 page with a way back", async ({
  page,
  consoleErrors,
}) => {
  // Chromium reports the page's own 404 status on the console; that one is asked for.
  consoleErrors.allow(
    /status of 404 \(Not Found\) \(http:\/\/localhost:\d+\/esta-pagina-no-existe\)/,
  );
  const response = await page.goto("/esta-pagina-no-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Página no encontrada" })).toBeVisible();
  await expect(page.getByText("La página que buscas no existe o fue movida.")).toBeVisible();
  const back = page.getByRole("link", { name: "Volver al inicio" });
  await expect(back).toHaveAttribute("href", "/inicio");
  await expectNoAxeViolations(page);

  await back.click();
  await expect(page).toHaveURL(/\/inicio$/);
  await expect(page.getByRole("heading", { level: 1, name: "Ayllu" })).toBeVisible();
});

test("a visitor is sent to /login from the member pages", async ({ page }) => {
  await page.goto("/aditionaldata");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faditionaldata$/);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
  await expect(page.getByRole("button", { name: "Iniciar Sesión con Google" })).toBeVisible();
});
