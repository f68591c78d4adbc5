// The first paint: a page is painted before its scripts are fetched
// (app/lib/defer-hydration.server.ts), a button pressed before they run still does what it says
// once they have, and nothing moves after that paint when the font arrives (styles/base.css).
import { expect, test, untilHydrated } from "./fixtures";

for (const [who, path] of [
  ["the events list", "/eventos"],
  ["the landing page", "/"],
  ["an event's page", "/detalles/"],
] as const) {
  test(`${who}: no script is requested before the first contentful paint, and the page hydrates`, async ({
    page,
  }) => {
    let target: string = path;
    if (path === "/detalles/") {
      await page.goto("/eventos");
      target = (await page.locator('a[href^="/detalles/"]').first().getAttribute("href"))!;
    }
    await page.goto(target);
    await untilHydrated(page);
    const { paint, scripts } = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => entry.name.endsWith(".js"))
        .map((entry) => entry.startTime),
    }));
    expect(paint).not.toBeNull();
    expect(scripts.length).toBeGreaterThan(3);
    for (const start of scripts) expect(start).toBeGreaterThan(paint!);
  });
}

test("a menu button pressed before the scripts have run opens once they have", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The client's entry is held back until the button has been pressed.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  // An explicit waitUntil: goto does not wait for hydration (fixtures.ts).
  await page.goto("/", { waitUntil: "load" });
  const toggle = page.getByRole("button", { name: "Menú de secciones" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // Pressed twice while nothing happened: it opens (each press is replayed once at most).
  await toggle.click();
  release();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#site-nav").getByRole("link", { name: "Articles" })).toBeVisible();
});

test("nothing moves on a phone after the first paint: the font is there in time, or not used", async ({
  browser,
  baseURL,
}) => {
  // A new browser context per page: each one loads the font with an empty cache.
  for (const path of ["/events", "/", "/clase1", "/eventos"]) {
    const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as { shifts?: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(path);
    await untilHydrated(page);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(() => (window as { shifts?: number[] }).shifts ?? []);
    expect(shifts, path).toEqual([]);
    await context.close();
  }
});
