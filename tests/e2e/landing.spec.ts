// The landing pages (§2 Home, Competition landing page, Micromouse course page; §9 the look) in a
// real browser against the production build with the demo content: the landing sections' defaults
// (app/site/copy/section-defaults.ts) and the demo's people, logos and links
// (app/site/copy/demo-sections.ts; what admins edit at /admin/sitio, and the demo's marks, are
// site.spec.ts, which may have saved some of them before these run on the same server), at
// phone and desktop widths. The specification's own words are also written out here so that a
// change to them fails.
import type { Page } from "@playwright/test";
import { competition, venueLabels } from "../../app/site/copy/competition";
import { coursePage } from "../../app/site/copy/course";
import { articles, courses, events, featured } from "../../app/site/copy/home";
import { SITE_DEFAULTS } from "../../app/site/copy/section-defaults";
import { DEMO_SECTIONS } from "../../app/site/copy/demo-sections";
import { demoNotes } from "../../app/site/copy/demo-notes";
import { expect, expectNoAxeViolations, test } from "./fixtures";

// The landing pages are where the site moves (reveals, the shader, smooth scrolling): they run
// with motion allowed, unlike the other journeys (playwright.config.ts).
test.use({ reducedMotion: "no-preference" });

const SCREENS = [
  { name: "teléfono", viewport: { width: 360, height: 780 } },
  { name: "escritorio", viewport: { width: 1280, height: 800 } },
];

/**
 * Scrolls through the whole page (so every scroll reveal has run) and waits for it to be still.
 * Each step waits for a frame to be drawn there, as a person's scrolling does: intersections are
 * only looked at when a frame is drawn, and a busy browser would otherwise jump past a section
 * without ever seeing it in view (it then stays hidden, waiting to be revealed).
 */
async function settle(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const scrollTo = (top: number) =>
    page.evaluate(async (y) => {
      window.scrollTo({ top: y, behavior: "instant" });
      await new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)));
    }, top);
  for (let y = 0; y <= height; y += 400) await scrollTo(y);
  await scrollTo(await page.evaluate(() => document.documentElement.scrollHeight));
  await expect(page.locator('[data-reveal="waiting"]')).toHaveCount(0);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running"),
  );
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/** Every link and button on the page is at least 44 px tall and wide (the visually hidden excepted). */
async function expectTapTargets(page: Page): Promise<void> {
  const small = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("main a[href], main button"))
      .filter((element) => element.offsetParent !== null && !element.closest(".visually-hidden"))
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(
        ({ element, box }) =>
          `${element.textContent?.trim()} (${Math.round(box.width)}×${Math.round(box.height)})`,
      ),
  );
  expect(small, "botones o enlaces de menos de 44 px").toEqual([]);
}

/** A link of the header: the site's menu or the home's own row of sections (decision 077). */
function navLink(page: Page, name: string) {
  return page.locator(".site-header").getByRole("link", { name, exact: true, includeHidden: true });
}

for (const screen of SCREENS) {
  test(`home shows every section with its texts, the accordions and the data (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    await page.goto("/");
    await expect(
      page.locator("#hero").getByRole("heading", { level: 1, name: "Ayllu" }),
    ).toBeVisible();
    await expect(page.getByText(SITE_DEFAULTS.hero.lead)).toBeVisible();
    await expect(page.getByRole("link", { name: "Únete a la comunidad" })).toHaveAttribute(
      "href",
      "/login",
    );
    for (const id of ["hero", "community", "courses", "events", "articles", "featured"]) {
      await expect(page.locator(`section#${id}`)).toHaveCount(1);
    }
    for (const title of ["Community", "Courses", "Events", "Articles", "Featured"]) {
      await expect(page.getByRole("heading", { level: 2, name: title, exact: true })).toBeVisible();
    }
    await expect(navLink(page, "Community")).toHaveAttribute("href", "/#community");

    // Community: the demo's leaders open; allies and sponsors a click away, one panel at a time.
    const communitySection = page.locator("#community");
    const ambassadors = communitySection.getByRole("button", { name: /^Ambassador Members/ });
    const allies = communitySection.getByRole("button", { name: /^Allies/ });
    const sponsors = communitySection.getByRole("button", { name: /^Sponsors/ });
    await expect(ambassadors).toHaveAttribute("aria-expanded", "true");
    await expect(
      communitySection.getByRole("list", { name: "Líderes de la comunidad" }).getByRole("listitem"),
    ).toHaveCount(5);
    await allies.click();
    await expect(ambassadors).toHaveAttribute("aria-expanded", "false");
    const alliesPanel = communitySection.getByRole("region", { name: /^Allies/ });
    await expect(
      alliesPanel.getByRole("list", { name: "Aliados" }).getByRole("listitem"),
    ).toHaveText(DEMO_SECTIONS.allies.allies.map((ally) => new RegExp(ally.name)));
    // site.spec.ts saves other sections, never the allies: they are still the demo's, and say so.
    await expect(alliesPanel.getByText(demoNotes.organisations)).toBeVisible();
    await sponsors.click();
    await expect(allies).toHaveAttribute("aria-expanded", "false");
    const sponsorsPanel = communitySection.getByRole("region", { name: /^Sponsors/ });
    await expect(sponsorsPanel.getByText(DEMO_SECTIONS.sponsors.intro)).toBeVisible();
    await expect(
      sponsorsPanel.getByRole("list", { name: "Patrocinadores" }).getByRole("listitem"),
    ).toHaveCount(DEMO_SECTIONS.sponsors.sponsors.length);
    await ambassadors.click();

    // Courses: the current one (to /clase1); no past courses yet, so no heading for them.
    const coursesSection = page.locator("#courses");
    await expect(coursesSection.getByRole("heading", { name: courses.currentTitle })).toBeVisible();
    await expect(coursesSection.getByRole("heading", { name: courses.pastTitle })).toHaveCount(0);
    await expect(
      coursesSection.getByRole("heading", { name: "Curso Preparatorio Micromouse" }),
    ).toBeVisible();
    // It registers in the demo course (decision 076): its dates, and its button to the event.
    await expect(
      coursesSection.getByRole("link", {
        name: new RegExp(`^${SITE_DEFAULTS.courses.current[0]!.linkLabel}`),
      }),
    ).toHaveAttribute("href", /^\/detalles\/[0-9a-f-]{36}$/);
    await expect(coursesSection.getByText(/^Del \d{1,2} al \d{1,2} de \w+ de \d{4}/)).toBeVisible();

    // Events: the Robotics Competition card to /events and the demo's upcoming events, soonest first.
    const eventsSection = page.locator("#events");
    await expect(
      eventsSection.getByRole("heading", { name: "Robotics Competition" }),
    ).toBeVisible();
    await expect(
      eventsSection.getByRole("link", { name: events.competition.linkLabel }),
    ).toHaveAttribute("href", "/events");
    // The three soonest upcoming events, soonest first. The demo's next are the weekly club
    // (within nine days) and the workshop (in two weeks); other tests on this server publish
    // events of their own that start today, which come first and may push them out.
    const upcoming = eventsSection.locator(".item-grid").last().locator(":scope > li");
    await expect(upcoming).toHaveCount(3);
    const starts = await upcoming.evaluateAll((cards) =>
      cards.map((card) => Date.parse(card.querySelector("time")!.getAttribute("datetime")!)),
    );
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const club = eventsSection.getByRole("link", { name: "Club de robótica de los sábados" });
    if ((await club.count()) === 1)
      await expect(club).toHaveAttribute("href", /^\/detalles\/[0-9a-f-]{36}$/);
    // Pushed out only by three events that come before it.
    else for (const start of starts) expect(start).toBeLessThan(Date.now() + 10 * 86_400_000);
    await expect(eventsSection.getByText(/Encuentro de la comunidad \d{4}/)).toHaveCount(0);
    await expect(eventsSection.getByText(/\d{1,2} de \w+ de \d{4}/).first()).toBeVisible();
    await expect(eventsSection.getByRole("link", { name: events.allLabel })).toHaveAttribute(
      "href",
      "/eventos",
    );

    // Articles: Community News is open by default with the latest notes.
    const articlesSection = page.locator("#articles");
    const news = articlesSection.getByRole("button", { name: /^Community News/ });
    const history = articlesSection.getByRole("button", { name: /^Tech History/ });
    await expect(news).toHaveAttribute("aria-expanded", "true");
    await expect(history).toHaveAttribute("aria-expanded", "false");
    // The YouTube link among the social links opens Our Talks.
    const talks = articlesSection.getByRole("button", { name: /^Our Talks/ });
    await expect(talks).toHaveAttribute("aria-expanded", "false");
    // Community News: the three newest notes, as /notas lists them (the demo's, unless specs run
    // before this one on the same server published notes of their own).
    const notas = await page.context().newPage();
    await notas.goto("/notas");
    const newest = (await notas.locator(".item-card-link").allTextContents()).slice(0, 3);
    await notas.close();
    expect(newest.length).toBeGreaterThanOrEqual(2);
    const newsCards = articlesSection
      .getByRole("region", { name: /^Community News/ })
      .locator(".item-card-link");
    await expect(newsCards).toHaveText(newest);
    await expect(newsCards.first()).toHaveAttribute("href", /^\/notas\/[0-9a-f-]{36}$/);
    await expect(
      articlesSection.getByRole("link", { name: articles.news.allLabel }),
    ).toHaveAttribute("href", "/notas");
    await history.click();
    await expect(news).toHaveAttribute("aria-expanded", "false");
    for (const item of articles.techHistory.items) {
      await expect(articlesSection.getByRole("link", { name: item.title })).toHaveAttribute(
        "href",
        item.href,
      );
    }
    // Clicking the open card closes it; by keyboard, Enter opens and Space closes.
    await history.click();
    await expect(history).toHaveAttribute("aria-expanded", "false");
    await history.focus();
    await page.keyboard.press("Enter");
    await expect(history).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Space");
    await expect(history).toHaveAttribute("aria-expanded", "false");
    await expect(articlesSection.getByText(articles.talks.linkLabel)).toBeHidden();
    await talks.click();
    await expect(
      articlesSection.getByRole("link", { name: new RegExp(`^${articles.talks.linkLabel}`) }),
    ).toHaveAttribute("href", /^https:\/\/www\.youtube\.com\//);
    await talks.click();

    // Featured: the demo project, and all projects.
    const featuredSection = page.locator("#featured");
    await expect(featuredSection.getByRole("link", { name: "Micromouse Ayllu" })).toHaveAttribute(
      "href",
      /^\/proyectos\/[0-9a-f-]{36}$/,
    );
    await expect(featuredSection.getByRole("link", { name: featured.allLabel })).toHaveAttribute(
      "href",
      "/proyectos",
    );

    // The footer, with the social links (the demo's YouTube one, unless site.spec.ts set another).
    await expect(
      page.getByRole("contentinfo").getByText(`© ${new Date().getFullYear()} Ayllu`),
    ).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("link")).toHaveText([/^YouTube/]);

    await settle(page);
    await expectNoHorizontalScroll(page);
    await expectTapTargets(page);
    await expectNoAxeViolations(page);
  });

  test(`the navigation highlights the home section in view after scrolling (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    await page.goto("/");
    await expect(navLink(page, "Home")).toHaveAttribute("aria-current", "location");
    for (const [id, label] of [
      ["courses", "Courses"],
      ["events", "Events"],
      ["featured", "Featured"],
    ] as const) {
      await page.evaluate(
        (id) =>
          document.getElementById(id)?.scrollIntoView({ block: "start", behavior: "instant" }),
        id,
      );
      await expect(navLink(page, label)).toHaveAttribute("aria-current", "location");
      await expect(page.locator('.home-subnav a[aria-current="location"]')).toHaveCount(1);
    }
  });

  test(`the header reaches Eventos, Notas, Recursos and Proyectos from every page (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    await page.goto("/clase1");
    const phone = screen.viewport.width <= 900;
    const toggle = page.getByRole("button", { name: "Menú del sitio" });
    for (const [label, path, heading] of [
      ["Eventos", "/eventos", "Eventos"],
      ["Notas", "/notas", "Notas de la comunidad"],
      ["Recursos", "/recursos", "Recursos"],
      ["Proyectos", "/proyectos", "Proyectos"],
    ] as const) {
      if (phone) await toggle.click();
      await navLink(page, label).click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      // The current area is marked for assistive technology, and not styled as the call to action.
      await expect(navLink(page, label)).toHaveAttribute("aria-current", "page");
      const [current, cta] = await Promise.all([
        navLink(page, label).evaluate((link) => getComputedStyle(link).backgroundColor),
        page
          .getByRole("link", { name: "Iniciar Sesión", exact: true })
          .evaluate((link) => getComputedStyle(link).backgroundColor),
      ]);
      expect(current).not.toBe(cta);
    }
    await expectNoAxeViolations(page);
  });
}

test("the phone's site menu closes on Escape and gives focus back to its button", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await page.goto("/");
  const toggle = page.getByRole("button", { name: "Menú del sitio" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(navLink(page, "Recursos")).toBeVisible();
  await navLink(page, "Recursos").focus();
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(navLink(page, "Recursos")).toBeHidden();
  await expect(toggle).toBeFocused();
});

for (const screen of SCREENS) {
  test(`/events shows the whole competition page with its one-second loading logo in the hero, never over it (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    await page.goto("/events");
    // Decision 077: no overlay; the logo pulses for one second (two halves) inside the hero.
    await expect(page.locator(".loading-overlay")).toHaveCount(0);
    const logo = page.locator(".landing-hero .loading-logo");
    await expect(logo).toHaveAttribute("alt", "");
    await expect(logo).toHaveCSS("animation-duration", "0.5s");
    await expect(logo).toHaveCSS("animation-iteration-count", "2");
    await expect(logo).toHaveCSS("position", "static");

    // The demo's competition (decision 076): its name, its next date, its place and categories.
    await expect(
      page.getByRole("heading", { level: 1, name: "Torneo de robótica de ejemplo" }),
    ).toBeVisible();
    await expect(page.locator(".landing-hero time")).toHaveText(/\d{1,2} de \w+ de \d{4}/);
    await expect(page.getByText("Bolivia, La Paz — Obrajes C2")).toBeVisible();
    await expect(
      page
        .getByRole("list", { name: "Categorías e inscripciones" })
        .getByRole("link", { name: "Robot Sumo" }),
    ).toBeVisible();

    const list = page.locator(".competition-list > li");
    await expect(list).toHaveCount(4);
    const micromouse = page.getByRole("link", { name: /Curso Micromouse/ });
    await expect(micromouse).toHaveAttribute("href", "/clase1");
    for (const name of ["Curso Robot Sumo", "Curso Seguidor de linea"]) {
      const item = list.filter({ hasText: name });
      await expect(item).toContainText("Pendiente");
      await expect(item.getByRole("link")).toHaveCount(0);
    }

    await expect(page.getByRole("heading", { name: SITE_DEFAULTS.venue.storeTitle })).toBeVisible();
    // The store's page is not set (/admin/sitio): no 'Tienda' button leading nowhere.
    await expect(page.getByRole("link", { name: /^Tienda/ })).toHaveCount(0);
    await expect(page.getByText("Tienda", { exact: true })).toHaveCount(0);
    // …and the card says so, rather than leading nowhere.
    await expect(
      page.getByRole("region", { name: SITE_DEFAULTS.venue.storeTitle }).getByText("Próximamente"),
    ).toBeVisible();
    await expect(page.getByText("Ubicación: Obrajes C2, La Paz, Bolivia")).toBeVisible();

    const benefits = page.locator(".benefits > li");
    await expect(benefits).toHaveCount(5);
    for (const benefit of SITE_DEFAULTS.competition.benefits)
      await expect(page.getByRole("heading", { name: benefit.title, exact: true })).toBeVisible();
    // The demo's sponsors and allies, as logos, said to be examples (site.spec.ts saves neither).
    for (const [title, items] of [
      [competition.sponsorsTitle, DEMO_SECTIONS.sponsors.sponsors],
      [competition.alliesTitle, DEMO_SECTIONS.allies.allies],
    ] as const) {
      await expect(page.getByRole("heading", { level: 2, name: title })).toBeVisible();
      await expect(page.getByRole("list", { name: title }).getByRole("img")).toHaveCount(
        items.length,
      );
    }
    await expect(page.getByText(demoNotes.organisations)).toHaveCount(2);

    await settle(page);
    await expectNoHorizontalScroll(page);
    await expectTapTargets(page);
    await expectNoAxeViolations(page);

    // The venue map is a Google Maps embed, loaded when asked for.
    await expect(page.locator("iframe")).toHaveCount(0);
    await page.getByRole("button", { name: competition.showMapLabel }).click();
    const map = page.getByTitle(venueLabels(SITE_DEFAULTS.venue.location).mapTitle);
    await expect(map).toHaveAttribute(
      "src",
      "https://www.google.com/maps?q=Obrajes%20C2%2C%20La%20Paz%2C%20Bolivia&output=embed",
    );
    await expect(map).toHaveAttribute("loading", "lazy");
    await expect(page.getByRole("link", { name: /Abrir en Google Maps/ })).toHaveAttribute(
      "href",
      "https://www.google.com/maps?q=Obrajes%20C2%2C%20La%20Paz%2C%20Bolivia",
    );

    await micromouse.click();
    await expect(page).toHaveURL(/\/clase1$/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Curso Preparatorio Micromouse" }),
    ).toBeVisible();
  });

  test(`/clase1: the carousel moves only when asked, and the course card (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    // The page's timers under the test's control (time flows as usual until the test moves it).
    await page.clock.install();
    await page.goto("/clase1");
    await expect(
      page.getByRole("heading", { level: 1, name: "Curso Preparatorio Micromouse" }),
    ).toBeVisible();
    const carousel = page.getByRole("region", { name: coursePage.carouselLabel });
    const slide = (n: number) => carousel.getByRole("group", { name: new RegExp(`^${n} de 3: `) });
    await expect(slide(1)).toBeVisible();
    await expect(slide(1)).toContainText("El Camino del Ratón");
    // Full screen: the carousel fills the height below the header.
    const box = await carousel.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(screen.viewport.height - 64 - 1);

    // No auto-advance: ten seconds of the page's timers, run at once.
    await page.clock.runFor(10_000);
    await expect(slide(1)).toBeVisible();
    await expect(slide(2)).toBeHidden();

    await carousel.getByRole("button", { name: "Diapositiva siguiente" }).click();
    await expect(slide(2)).toBeVisible();
    await expect(slide(1)).toBeHidden();
    await page.keyboard.press("ArrowRight");
    await expect(slide(3)).toBeVisible();
    await page.keyboard.press("ArrowRight");
    await expect(slide(1)).toBeVisible();
    await page.keyboard.press("ArrowLeft");
    await expect(slide(3)).toBeVisible();
    await page.keyboard.press("Home");
    await expect(slide(1)).toBeVisible();
    await carousel.getByRole("button", { name: /Ir a la diapositiva 2/ }).click();
    await expect(slide(2)).toBeVisible();
    await expect(carousel.getByRole("button", { name: /Ir a la diapositiva 2/ })).toHaveAttribute(
      "aria-current",
      "true",
    );

    // The course card.
    await expect(
      page.getByRole("heading", { level: 3, name: "El Camino del Ratón" }),
    ).toBeVisible();
    // The price and dates: the demo course's (decision 076), or the words site.spec.ts left.
    await expect(page.locator(".course-card .price")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Seleccionado/ })).toHaveAttribute(
      "aria-pressed",
      "true",
    );

    await settle(page);
    await expectNoHorizontalScroll(page);
    await expectTapTargets(page);
    await expectNoAxeViolations(page);

    // INSCRÍBETE opens 'Inscríbete Ahora': the registration form, the group and 'Cerrar' (the
    // demo's links, or those site.spec.ts set).
    const enrol = page.getByRole("button", { name: "INSCRÍBETE" });
    await enrol.click();
    const dialog = page.getByRole("dialog", { name: "Inscríbete Ahora" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(SITE_DEFAULTS.course.description)).toBeVisible();
    // The demo course registers here; a course without its event, through the outside form.
    await expect(
      dialog.getByRole("link", { name: /^(Formulario de Inscripción|Inscribirme en el sitio)/ }),
    ).toHaveAttribute("href", /^(https:\/\/|\/detalles\/)/);
    await expectNoAxeViolations(page);
    await dialog.getByRole("button", { name: "Cerrar" }).click();
    await expect(dialog).toBeHidden();
    await expect(enrol).toBeFocused();
  });
}

test("at 768 px (a tablet) the landing pages fit the width and keep 44 px tap targets", async ({
  page,
}) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  for (const path of ["/", "/events", "/clase1"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await settle(page);
    await expectNoHorizontalScroll(page);
    await expectTapTargets(page);
  }
});

test("the landing pages are complete in the server's HTML, before any script runs", async ({
  request,
}) => {
  const home = await (await request.get("/")).text();
  for (const text of ["Tech History", "Community News", "Robotics Competition"]) {
    expect(home).toContain(text);
  }
  const events = await (await request.get("/events")).text();
  for (const text of [
    "Torneo de robótica de ejemplo",
    "Curso Micromouse",
    "Curso Robot Sumo",
    "Curso Seguidor de linea",
    "Pendiente",
    SITE_DEFAULTS.venue.storeTitle,
    "Ubicación: Obrajes C2, La Paz, Bolivia",
    ...SITE_DEFAULTS.competition.benefits.map((benefit) => benefit.title),
  ]) {
    expect(events).toContain(text);
  }
  expect(events).toContain('class="loading-logo"');
  expect(events).not.toContain("loading-overlay");
  const clase1 = await (await request.get("/clase1")).text();
  for (const text of ["Curso Preparatorio Micromouse", "El Camino del Ratón", "Seleccionado"]) {
    expect(clase1).toContain(text);
  }
  // ogl is not part of the initial JavaScript: it is fetched later, only when the shader starts.
  for (const html of [home, events, clase1])
    expect(html).not.toMatch(/rel="modulepreload"[^>]*assets\/src-/);
});

/**
 * This machine has no GPU: Chromium renders WebGL in software (SwiftShader), which the shader
 * refuses as it would on a phone without a usable GPU. To see the shader as a device with a GPU
 * does, the browser hands out its software context without the caveat and names another renderer.
 */
async function emulateGpu(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (
      this: HTMLCanvasElement,
      type: string,
      options?: Record<string, unknown>,
    ) {
      const { failIfMajorPerformanceCaveat: _ignored, ...rest } = options ?? {};
      return getContext.call(this, type as "webgl", rest);
    } as typeof getContext;
    const UNMASKED_RENDERER_WEBGL = 0x9246;
    for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
      const getParameter = proto.getParameter;
      proto.getParameter = function (this: WebGLRenderingContext, name: number) {
        if (name === this.RENDERER || name === UNMASKED_RENDERER_WEBGL) return "Emulated GPU";
        return getParameter.call(this, name);
      } as typeof getParameter;
    }
  });
}

test("without a usable GPU the background stays the still gradient, with no error", async ({
  page,
}) => {
  await page.goto("/");
  const background = page.locator("[data-shader]");
  await expect(background).toHaveAttribute("data-shader", "static");
  await expect(background.locator("canvas")).toHaveCount(0);
  expect(
    await background.evaluate((element) => getComputedStyle(element).backgroundImage),
  ).toContain("gradient");
});

test("with a GPU and motion allowed, the shader starts after the page is interactive and pauses in a hidden tab", async ({
  page,
}) => {
  await emulateGpu(page);
  const oglRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/src-[\w-]+\.js$/.test(request.url())) oglRequests.push(request.url());
  });
  await page.goto("/");
  const background = page.locator("[data-shader]");
  await expect(background).toHaveAttribute("aria-hidden", "true");
  await expect(background).toHaveAttribute("data-shader", "running");
  await expect(background.locator("canvas")).toHaveCount(1);
  expect(oglRequests).toHaveLength(1);
  const size = await background
    .locator("canvas")
    .evaluate((canvas: HTMLCanvasElement) => [canvas.width, canvas.height]);
  expect(size).toEqual([1280, 800]);
  expect(await background.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe(
    "none",
  );

  const setHidden = (hidden: boolean) =>
    page.evaluate((hidden) => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
      document.dispatchEvent(new Event("visibilitychange"));
    }, hidden);
  await setHidden(true);
  await expect(background).toHaveAttribute("data-shader", "paused");
  await setHidden(false);
  await expect(background).toHaveAttribute("data-shader", "running");
});

test.describe("with prefers-reduced-motion: reduce", () => {
  test.use({ reducedMotion: "reduce" });

  for (const path of ["/", "/events", "/clase1"]) {
    test(`no animation runs and the shader is not started on ${path}`, async ({ page }) => {
      await emulateGpu(page);
      const oglRequests: string[] = [];
      page.on("request", (request) => {
        if (/\/assets\/src-[\w-]+\.js$/.test(request.url())) oglRequests.push(request.url());
      });
      await page.goto(path);
      // The attribute is set once the page has hydrated and decided.
      await expect(page.locator("[data-shader]")).toHaveAttribute("data-shader", "static");
      await expect(page.locator("[data-shader] canvas")).toHaveCount(0);
      await expect(page.locator(".loading-overlay")).toHaveCount(0);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y <= height; y += 400)
        await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
      await expect(page.locator("[data-reveal]")).toHaveCount(0);
      expect(oglRequests).toEqual([]);
      await expectNoAxeViolations(page);
    });
  }
});
