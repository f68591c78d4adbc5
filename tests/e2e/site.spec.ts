// The landing pages' content edited in the site (/admin/sitio, decision 023): the demo's sections
// are marked as demo on the pages and at /admin/sitio (decision 042); an admin replaces the demo
// leaders, reorders them, sets the course's links and the community's YouTube channel in Chromium,
// a visitor sees all of it — no longer marked — on the next request. The content goes back to the
// demo's afterwards (saved, so no longer marked): the other landing tests on this worker's server
// expect it. This is the one browser test that saves a section, so the marks are checked here,
// before it does.
import type { Browser, Page } from "@playwright/test";
import { SITE_DEFAULTS } from "../../app/site/copy/section-defaults";
import { DEMO_SECTIONS } from "../../app/site/copy/demo-sections";
import { demoNotes } from "../../app/site/copy/demo-notes";
import type { SiteSectionKey } from "../../app/site/sections";
import { valuesFromSection } from "../../app/site/section-fields";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  publishEvent,
  shoot,
  signInAdmin,
  signInOverHttp,
  test,
  workerBaseUrl,
} from "./fixtures";

// The tests below run in order in one worker: the last saves the course and takes its demo mark.
test.describe.configure({ mode: "serial" });

// An admin of this file's own: the others sign admin-e2e in under other names, and the menu
// below is found by the name this one completes its profile with.
const ADMIN = "admin-sitio@ayllu.test";

async function acknowledge(page: Page, message: string | RegExp) {
  const alert = page.getByRole("alertdialog");
  await expect(alert).toContainText(message);
  await alert.getByRole("button", { name: "OK" }).click();
  await expect(alert).toBeHidden();
}

/** What the demo's server starts with: the defaults, and the demo's sections. */
const STARTING_CONTENT = { ...SITE_DEFAULTS, ...DEMO_SECTIONS };

/** Puts sections back to the demo's content with the page's own form post. */
async function restore(page: Page, keys: SiteSectionKey[]) {
  for (const key of keys) {
    const body = new URLSearchParams({ intent: "save", section: key });
    for (const [name, value] of Object.entries(valuesFromSection(key, STARTING_CONTENT[key])))
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
  // Before any save: the demo's content, marked as such where a visitor sees it.
  const before = await visitorPage(browser, baseURL);
  try {
    const home = before.page;
    await home.goto("/");
    const community = home.locator("#community");
    await expect(community.getByText(demoNotes.leaders)).toBeVisible();
    await expect(
      community.getByRole("list", { name: "Líderes de la comunidad" }).getByRole("listitem"),
    ).toHaveCount(5);
    await community.getByRole("button", { name: /^Sponsors/ }).click();
    const sponsors = community.getByRole("region", { name: /^Sponsors/ });
    await expect(sponsors.getByText(demoNotes.organisations)).toBeVisible();
    await expect(sponsors.getByText(DEMO_SECTIONS.sponsors.intro)).toBeVisible();
    const articles = home.locator("#articles");
    await articles.getByRole("button", { name: /^Our Talks/ }).click();
    await expect(articles.getByText(demoNotes.talks)).toBeVisible();
    await expect(
      articles.getByRole("link", { name: /^Ver las charlas en YouTube/ }),
    ).toHaveAttribute("href", DEMO_SECTIONS.social.links[0]!);
    await expect(home.getByRole("contentinfo").getByText(demoNotes.footer)).toBeVisible();
    await expectNoAxeViolations(home);

    await home.goto("/clase1");
    await expect(
      home.getByRole("article", { name: "El Camino del Ratón" }).getByText(demoNotes.course),
    ).toBeVisible();
    await home.getByRole("button", { name: "INSCRÍBETE" }).click();
    const dialog = home.getByRole("dialog", { name: "Inscríbete Ahora" });
    await expect(dialog.getByText(demoNotes.course)).toBeVisible();
    // The demo course registers in the demo's own course event (decision 076).
    await expect(dialog.getByRole("link", { name: "Inscribirme en el sitio" })).toHaveAttribute(
      "href",
      /^\/detalles\/[0-9a-f-]{36}$/,
    );
    await dialog.getByRole("button", { name: "Cerrar" }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await before.close();
  }

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
    // The sections holding the demo's content, each a link to its form.
    const notice = page.getByRole("note", { name: "Contenido de demostración" });
    await expect(notice.getByRole("link").first()).toHaveText("Líderes");
    // The competition is the demo's too, unless competitions.spec.ts (on this worker's server)
    // linked its own event there and saved it.
    expect(
      (await notice.getByRole("link").allTextContents()).filter((t) => t !== "Competencia"),
    ).toEqual([
      "Líderes",
      "Aliados",
      "Patrocinadores",
      "Cursos",
      "Curso (/clase1)",
      "Redes sociales",
    ]);
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

    // The demo's leaders replaced by two, the second moved up; focus stays on the moved row.
    const sections = page.getByRole("navigation", { name: "Secciones del contenido" });
    await sections.getByRole("link", { name: "Líderes" }).click();
    await expect(sections.getByRole("link", { name: "Líderes" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const leaders = page.getByRole("region", { name: "Líderes" });
    await expect(leaders.getByText(demoNotes.adminSection)).toBeVisible();
    for (let left = 5; left > 0; left--) {
      await expect(leaders.getByRole("group", { name: /^Líder \d+$/ })).toHaveCount(left);
      await leaders.getByRole("button", { name: "Quitar líder 1" }).click();
    }
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
    // Saved: no longer demo content.
    await expect(leaders.getByText(demoNotes.adminSection)).toHaveCount(0);
    await expect(notice.getByRole("link", { name: "Líderes" })).toHaveCount(0);
    await expect(notice.getByRole("link", { name: "Aliados" })).toBeVisible();

    // The course's registration form and group, and the community's channel.
    await sections.getByRole("link", { name: "Curso (/clase1)" }).click();
    const course = page.getByRole("region", { name: "Curso (/clase1)" });
    // Without the demo's course event: INSCRÍBETE leads to the outside form and the group.
    await course.getByLabel("Evento de la inscripción").selectOption("");
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
      await expect(community.getByText(demoNotes.leaders)).toHaveCount(0);
      await expect(
        home.getByRole("contentinfo").getByRole("link", { name: /^YouTube/ }),
      ).toHaveAttribute("href", "https://www.youtube.com/@ayllu");

      await home.goto("/clase1");
      await expect(home.getByText(demoNotes.course)).toHaveCount(0);
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

// After the test above (this file runs in order, in one worker): saving the course takes its demo
// mark away, which the test above checks first.
test("the course page registers in the site: with its event chosen at /admin/sitio, 'Inscríbete Ahora' shows its price and dates and leads to it", async ({
  page,
}) => {
  await signInAdmin(page);
  const name = `Curso del sitio ${Date.now()}`;
  const eventId = await publishEvent(page, name, {
    startsAt: new Date(Date.now() + 10 * 86_400_000),
    price: "30",
  });
  await page.goto("/admin/sitio?seccion=course");
  await page.getByLabel("Evento de la inscripción").selectOption(eventId);
  await page.getByRole("button", { name: "Guardar Curso (/clase1)" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expectNoAxeViolations(page);

  await page.context().clearCookies();
  await createMember(page);
  await page.goto("/clase1");
  await page.getByRole("button", { name: "INSCRÍBETE" }).click();
  const dialog = page.getByRole("dialog", { name: "Inscríbete Ahora" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Bs 30", { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "clase1-inscribete", dialog);
  await page.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole("link", { name: "Inscribirme en el sitio" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Bs 30", { exact: true })).toBeVisible();

  // The worker's server is shared with the landing pages' tests: the course goes back to its form.
  await page.context().clearCookies();
  await signInAdmin(page);
  await page.goto("/admin/sitio?seccion=course");
  await page.getByLabel("Evento de la inscripción").selectOption("");
  await page.getByRole("button", { name: "Guardar Curso (/clase1)" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
});
