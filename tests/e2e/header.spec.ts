// The header (issue 58, decision 077): one menu of the site's areas with 'Modo liviano' in it, and
// the home's own row of section links, two things that never name one destination twice; light mode
// from the top menu with and without JavaScript; and light mode offered once by itself on a slow
// connection (Chromium's network emulation standing in for a slow phone), the answer kept in the
// 'liviano' cookie.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const SCREENS = [
  { name: "360 px", viewport: { width: 360, height: 780 } },
  { name: "1280 px", viewport: { width: 1280, height: 800 } },
] as const;

const SECTION_LINKS = ["Home", "Community", "Courses", "Events", "Articles", "Featured"];
const AREA_LINKS = ["Eventos", "Notas", "Recursos", "Proyectos"];

/** Every link of the header's menus as [name, address], hidden ones too. */
async function menuLinks(page: Page): Promise<[string, string][]> {
  return page.locator(".site-header nav a[href]").evaluateAll((links) =>
    links.map((link) => {
      const url = new URL((link as HTMLAnchorElement).href);
      return [link.textContent!.trim(), `${url.pathname}${url.hash}`];
    }),
  );
}

for (const screen of SCREENS) {
  test(`the site's menu and the home's sections are two navigations, no destination under two names (${screen.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(screen.viewport);
    await page.goto("/");
    const site = page.getByRole("navigation", { name: "Sitio", exact: true, includeHidden: true });
    const sections = page.getByRole("navigation", { name: "Secciones de la página de inicio" });
    await expect(sections).toBeVisible();
    // The specification's words stay, in the home's own row; the site's areas are not in it.
    for (const name of SECTION_LINKS) {
      await expect(sections.getByRole("link", { name, exact: true })).toHaveCount(1);
      await expect(site.getByRole("link", { name, exact: true })).toHaveCount(0);
    }
    for (const name of AREA_LINKS) {
      await expect(site.getByRole("link", { name, exact: true, includeHidden: true })).toHaveCount(
        1,
      );
      await expect(sections.getByRole("link", { name, exact: true })).toHaveCount(0);
    }
    // The two look apart: the sections' row is under the site's bar.
    const bar = await page.locator(".site-header-inner").boundingBox();
    const row = await sections.boundingBox();
    expect(row!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height - 1);

    // No destination twice in the menus, under two names or one.
    const places = (await menuLinks(page)).map(([, place]) => place);
    expect(places.length).toBe(SECTION_LINKS.length + AREA_LINKS.length);
    expect(new Set(places).size).toBe(places.length);

    // By keyboard: from the skip link, the logo, then the site's menu (its button on a phone),
    // then the home's sections.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Ayllu, inicio" })).toBeFocused();
    await page.keyboard.press("Tab");
    if (screen.viewport.width <= 900) {
      const toggle = page.getByRole("button", { name: "Menú del sitio" });
      await expect(toggle).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      // The opened menu lies over the home's row of sections, not under it.
      await site.getByRole("link", { name: "Proyectos" }).click({ trial: true });
      await page.keyboard.press("Tab");
      await expect(site.getByRole("link", { name: "Eventos" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(toggle).toBeFocused();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await page.keyboard.press("Tab");
    } else {
      for (const name of AREA_LINKS) {
        await expect(site.getByRole("link", { name, exact: true })).toBeFocused();
        await page.keyboard.press("Tab");
      }
      await expect(site.getByRole("button", { name: "Modo liviano" })).toBeFocused();
      await page.keyboard.press("Tab");
    }
    await expect(page.getByRole("link", { name: "Iniciar Sesión", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(sections.getByRole("link", { name: "Home", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/#community$/);
    await expect(sections.getByRole("link", { name: "Community" })).toHaveAttribute(
      "aria-current",
      "location",
    );
    await expectNoAxeViolations(page);

    // An inner page: the site's menu only; the home's sections are the home's.
    await page.goto("/eventos");
    await expect(
      page.getByRole("navigation", { name: "Secciones de la página de inicio" }),
    ).toHaveCount(0);
    await expect(site.getByRole("link", { name: "Eventos", includeHidden: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const inner = (await menuLinks(page)).map(([, place]) => place);
    expect(inner).toEqual(["/eventos", "/notas", "/recursos", "/proyectos"]);
  });
}

test("'Modo liviano' is in the top menu: on a phone with JavaScript, and without it", async ({
  browser,
  baseURL,
}) => {
  const withScripts = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  const noScripts = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    javaScriptEnabled: false,
  });
  try {
    const page = await withScripts.newPage();
    await page.goto("/notas");
    await page.getByRole("button", { name: "Menú del sitio" }).click();
    await page
      .getByRole("navigation", { name: "Sitio" })
      .getByRole("button", { name: "Modo liviano" })
      .click();
    await expect(page).toHaveURL(/\/notas$/);
    await expect(page.locator("html")).toHaveAttribute("data-liviano", "");
    expect((await withScripts.cookies()).find((c) => c.name === "liviano")?.value).toBe("1");
    // The light page's menu is a disclosure that needs no script; it turns light mode off.
    await page.locator("summary.nav-toggle").click();
    await page.getByRole("button", { name: "Desactivar el modo liviano" }).click();
    await expect(page.locator("html")).not.toHaveAttribute("data-liviano", "");

    // Without JavaScript: a plain form in the bar (a phone without scripts gets the light
    // pages' disclosure menu once light; 049's Save-Data does that by itself).
    const plain = await noScripts.newPage();
    await plain.goto("/recursos", { waitUntil: "load" });
    await plain
      .getByRole("navigation", { name: "Sitio" })
      .getByRole("button", { name: "Modo liviano" })
      .click();
    await expect(plain).toHaveURL(/\/recursos$/);
    await expect(plain.locator("html")).toHaveAttribute("data-liviano", "");
    expect((await noScripts.cookies()).find((c) => c.name === "liviano")?.value).toBe("1");
    // A light page on a phone: its menu opens without scripts, and turns light mode off.
    await plain.setViewportSize({ width: 360, height: 780 });
    await plain.locator("summary.nav-toggle").click();
    await plain.getByRole("button", { name: "Desactivar el modo liviano" }).click();
    await expect(plain).toHaveURL(/\/recursos$/);
    await expect(plain.locator("html")).not.toHaveAttribute("data-liviano", "");
    // A phone without JavaScript on a page with scripts: the scripted button cannot open, so it
    // is not shown; the menu in its <noscript> opens instead and offers light mode.
    await expect(plain.locator("button.nav-toggle")).toBeHidden();
    await plain.locator("summary.nav-toggle").click();
    const menu = plain.getByRole("navigation", { name: "Sitio" });
    await expect(menu.getByRole("link", { name: "Eventos" })).toBeVisible();
    await menu.getByRole("button", { name: "Modo liviano" }).click();
    await expect(plain).toHaveURL(/\/recursos$/);
    await expect(plain.locator("html")).toHaveAttribute("data-liviano", "");
  } finally {
    await withScripts.close();
    await noScripts.close();
  }
});

/** A slow 3G phone, as Chromium's network emulation has it. */
async function slowConnection(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 400,
    downloadThroughput: (400 * 1024) / 8,
    uploadThroughput: (400 * 1024) / 8,
    connectionType: "cellular3g",
  });
}

test("on a slow connection light mode is offered once by itself, and the answer is kept in a cookie", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const fast = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  const slow = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  const slowToo = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  try {
    // A fast connection: no offer.
    const quick = await fast.newPage();
    await quick.goto("/notas");
    await quick.waitForTimeout(500);
    await expect(quick.getByRole("region", { name: "¿Conexión lenta?" })).toHaveCount(0);

    // Slow: offered; 'No, gracias' is kept in the cookie, and the offer is not made again.
    const page = await slow.newPage();
    await slowConnection(slow, page);
    await page.goto("/notas", { timeout: 120_000 });
    expect(
      await page.evaluate(
        () =>
          (navigator as Navigator & { connection?: { effectiveType?: string } }).connection
            ?.effectiveType,
      ),
    ).toMatch(/^(slow-2g|2g|3g)$/);
    const offer = page.getByRole("region", { name: "¿Conexión lenta?" });
    await expect(offer).toBeVisible();
    await expectNoAxeViolations(page);
    await offer.getByRole("button", { name: "No, gracias" }).click();
    await expect(offer).toHaveCount(0);
    await expect(page).toHaveURL(/\/notas$/);
    expect((await slow.cookies()).find((c) => c.name === "liviano")?.value).toBe("0");
    await page.goto("/eventos", { timeout: 120_000 });
    await page.waitForTimeout(500);
    await expect(page.getByRole("region", { name: "¿Conexión lenta?" })).toHaveCount(0);
    await expect(page.locator("html")).not.toHaveAttribute("data-liviano", "");

    // Slow, and yes: the next pages are light, without scripts.
    const other = await slowToo.newPage();
    await slowConnection(slowToo, other);
    await other.goto("/recursos", { timeout: 120_000 });
    await other
      .getByRole("region", { name: "¿Conexión lenta?" })
      .getByRole("button", { name: "Usar el modo liviano" })
      .click();
    await expect(other.locator("html")).toHaveAttribute("data-liviano", "");
    await expect(other).toHaveURL(/\/recursos$/);
    expect((await slowToo.cookies()).find((c) => c.name === "liviano")?.value).toBe("1");
    await expect(other.getByRole("region", { name: "¿Conexión lenta?" })).toHaveCount(0);
  } finally {
    await fast.close();
    await slow.close();
    await slowToo.close();
  }
});
