// The landing pages' content edited in the site (/admin/sitio, decision 023): an admin adds and
// reorders leaders, sets the course's links and the community's YouTube channel in Chromium, a
// visitor sees all of it on the next request. The content goes back to the defaults afterwards:
// the other landing tests on this worker's server expect them.
import type { Browser, Page } from "@playwright/test";
import { SITE_DEFAULTS } from "../../app/site/copy/section-defaults";
import type { SiteSectionKey } from "../../app/site/sections";
import { valuesFromSection } from "../../app/site/section-fields";
import {
  completeProfileOverHttp,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
  workerBaseUrl,
} from "./fixtures";

// An admin of this file's own: the others sign admin-e2e in under other names, and the menu
// below is found by the name this one completes its profile with.
const ADMIN = "admin-sitio@ayllu.test";

async function acknowledge(page: Page, message: string | RegExp) {
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText(message);
  await alert.getByRole("button", { name: "OK" }).click();
  await expect(alert).toBeHidden();
}

/** Puts sections back to their defaults with the page's own form post. */
async function restore(page: Page, keys: SiteSectionKey[]) {
  for (const key of keys) {
    const body = new URLSearchParams({ intent: "save", section: key });
    for (const [name, value] of Object.entries(valuesFromSection(key, SITE_DEFAULTS[key])))
      for (const v of Array.isArray(value) ? value : [value]) body.append(name, String(v));
    const reply = await page.request.post("/admin/sitio", {
      data: body.toString(),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: new URL(workerBaseUrl()).origin,
      },
    });
    expect(reply.ok(), key).toBe(true);
  }
}

async function visitorPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  return { page: await context.newPage(), close: () => context.close() };
}

test("an admin edits the landing sections at /admin/sitio and a visitor sees them on the next request", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // The refused form below is answered 400, which Chromium reports on the console.
  consoleErrors.allow(
    /status of 400 \(Bad Request\) \(http:\/\/[^)]+\/admin\/sitio\.data\?seccion=hero\)/,
  );
  if ((await signInOverHttp(page, { email: ADMIN, name: "Eva Admin" })) === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Eva Admin" }));
  try {
    // Reached from the admin's menu.
    await page.goto("/admin");
    await page.getByRole("button", { name: /Eva Admin/ }).click();
    await page.getByRole("menuitem", { name: "Contenido del sitio" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Contenido del sitio" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    // A required field left empty is refused beside the field, and nothing is saved.
    const hero = page.getByRole("region", { name: "Portada" });
    await hero.getByRole("textbox", { name: "Título", exact: true }).fill("");
    await hero.getByRole("button", { name: "Guardar Portada" }).click();
    await acknowledge(page, "Revisa los campos marcados: no se guardó nada.");
    await expect(hero.getByRole("textbox", { name: "Título", exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(hero.getByText("«Título» es obligatorio.")).toBeVisible();
    await expectNoAxeViolations(page);

    // Two leaders, the second moved up; focus stays on the moved row.
    const sections = page.getByRole("navigation", { name: "Secciones del contenido" });
    await sections.getByRole("link", { name: "Líderes" }).click();
    await expect(sections.getByRole("link", { name: "Líderes" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const leaders = page.getByRole("region", { name: "Líderes" });
    await leaders.getByRole("button", { name: "+ Añadir líder" }).click();
    const first = leaders.getByRole("group", { name: "Líder 1" });
    await expect(first.getByLabel("Nombre")).toBeFocused();
    await first.getByLabel("Nombre").fill("Ana Quispe");
    await first.getByLabel("Rol").fill("Mentora de robótica");
    await first.getByLabel("Foto").fill("/logo.svg");
    await leaders.getByRole("button", { name: "+ Añadir líder" }).click();
    const second = leaders.getByRole("group", { name: "Líder 2" });
    await second.getByLabel("Nombre").fill("Luis Mamani");
    await second.getByLabel("Foto").fill("/favicon.svg");
    await leaders.getByRole("button", { name: "Subir líder 2" }).click();
    await expect(first.getByLabel("Nombre")).toHaveValue("Luis Mamani");
    await expect(leaders.getByRole("button", { name: "Bajar líder 1" })).toBeFocused();
    await leaders.getByRole("button", { name: "Guardar Líderes" }).click();
    await acknowledge(page, "Contenido guardado con éxito! Ya se ve en el sitio.");

    // The course's registration form and group, and the community's channel.
    await sections.getByRole("link", { name: "Curso (/clase1)" }).click();
    const course = page.getByRole("region", { name: "Curso (/clase1)" });
    await course.getByLabel("Formulario de Inscripción").fill("https://forms.example.org/curso");
    await course.getByLabel("Enlace de invitación al grupo").fill("https://chat.example.org/grupo");
    await course.getByRole("button", { name: "Guardar Curso (/clase1)" }).click();
    await acknowledge(page, /Contenido guardado/);
    await sections.getByRole("link", { name: "Redes sociales" }).click();
    const social = page.getByRole("region", { name: "Redes sociales" });
    await social.getByLabel("Enlace 1").fill("https://www.youtube.com/@ayllu");
    await social.getByRole("button", { name: "Guardar Redes sociales" }).click();
    await acknowledge(page, /Contenido guardado/);
    await sections.getByRole("link", { name: "Líderes" }).click();
    await expect(
      page.getByRole("region", { name: "Líderes" }).getByLabel("Nombre").first(),
    ).toHaveValue("Luis Mamani");

    // A visitor, at once.
    const visitor = await visitorPage(browser, baseURL);
    try {
      const home = visitor.page;
      await home.goto("/");
      const community = home.locator("#community");
      await expect(community.getByRole("button", { name: /^Ambassador Members/ })).toHaveAttribute(
        "aria-expanded",
        "true",
      );
      await expect(
        community.getByRole("list", { name: "Líderes de la comunidad" }).getByRole("listitem"),
      ).toHaveText([/Luis Mamani/, /Ana Quispe/]);
      await expect(home.getByRole("img", { name: "Foto de Ana Quispe" })).toBeVisible();
      await expect(
        home.getByRole("contentinfo").getByRole("link", { name: /^YouTube/ }),
      ).toHaveAttribute("href", "https://www.youtube.com/@ayllu");

      await home.goto("/clase1");
      const enrol = home.getByRole("button", { name: "INSCRÍBETE" });
      await enrol.click();
      const dialog = home.getByRole("dialog", { name: "Inscríbete Ahora" });
      await expect(
        dialog.getByRole("link", { name: /^Formulario de Inscripción/ }),
      ).toHaveAttribute("href", "https://forms.example.org/curso");
      await expect(
        dialog.getByRole("link", { name: /^Grupo de WhatsApp del curso/ }),
      ).toHaveAttribute("href", "https://chat.example.org/grupo");
      await expectNoAxeViolations(home);
      // Focus stays inside; Escape closes it and gives focus back to INSCRÍBETE.
      for (let i = 0; i < 4; i++) {
        await home.keyboard.press("Tab");
        expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(
          true,
        );
      }
      await home.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(enrol).toBeFocused();
    } finally {
      await visitor.close();
    }
  } finally {
    await restore(page, ["hero", "leaders", "course", "social"]);
  }
});
