// The first paint: a page is painted before its scripts are fetched
// (app/lib/defer-hydration.server.ts), a button pressed before they run still does what it says
// once they have, and nothing moves after that paint when the font arrives (styles/base.css).
import { expect, test } from "./fixtures";

for (const [who, path] of [
  ["a visitor's cached page", "/eventos"],
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
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
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
  await page.goto("/");
  const toggle = page.getByRole("button", { name: "Menú de secciones" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  release();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#site-nav").getByRole("link", { name: "Articles" })).toBeVisible();
});

test("nothing moves on a phone after the first paint: the font is there in time, or not used", async ({
  page,
}) => {
  await page.setViewportSize({ width: 412, height: 823 });
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as { shifts?: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: "layout-shift", buffered: true });
  });
  for (const path of ["/events", "/", "/clase1", "/eventos"]) {
    await page.goto(path);
    await page.waitForFunction(() => "__reactRouterRouteModules" in window);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(() => (window as { shifts?: number[] }).shifts ?? []);
    expect(shifts, path).toEqual([]);
  }
});
