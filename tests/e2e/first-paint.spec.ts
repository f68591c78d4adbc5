// The first paint: a page is painted before its scripts are fetched
// (app/kernel/defer-hydration.server.ts), a button pressed before they run still does what it says
// once they have, a reader who scrolls before then is not moved back, and nothing moves after that
// paint when the font arrives (styles/base.css).
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
  const toggle = page.getByRole("button", { name: "Menú del sitio" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");

  // Pressed twice while nothing happened: it opens (each press is replayed once at most).
  await toggle.click();
  release();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#site-nav").getByRole("link", { name: "Notas" })).toBeVisible();
});

test("a reader who scrolls before the scripts have run stays where they scrolled to", async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto("/");
  await page.evaluate(() => window.scrollTo(0, 700));
  // Reloaded: React Router's inline script puts the reader back at 700 before the paint; the
  // scripts are held until the reader has scrolled on.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.reload({ waitUntil: "load" });
  // Back near 700: on a loaded machine the inline script may run while the page below is still
  // arriving, and the browser stops short of it (670 once).
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
  const restored = await page.evaluate(() => window.scrollY);
  await page.mouse.move(180, 300);
  await page.mouse.wheel(0, 600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(restored + 600);
  release();
  await untilHydrated(page);
  // Hydrating does not restore the position a second time.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => window.scrollY)).toBe(restored + 600);
});

test("nothing visibly moves on a phone after the first paint: the font is there in time, or not used", async ({
  browser,
  baseURL,
}) => {
  // A new browser context per page: each one loads the font with an empty cache.
  for (const path of ["/events", "/", "/clase1", "/eventos"]) {
    const context = await browser.newContext({ baseURL, viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts: { value: number; moved: string[] }[] = [];
      (window as { shifts?: unknown }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const shift = entry as unknown as {
            value: number;
            sources?: { node?: Node | null }[];
          };
          const moved = (shift.sources ?? []).map((source) => {
            const node = source.node;
            if (!(node instanceof Element)) return node?.nodeName ?? "?";
            return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}.${[...node.classList].join(".")}`;
          });
          shifts.push({ value: shift.value, moved });
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(path);
    await untilHydrated(page);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(300);
    const shifts = await page.evaluate(
      () => (window as { shifts?: { value: number; moved: string[] }[] }).shifts ?? [],
    );
    // A font swapped in late moves every line of text (a shift of a hundredth or more); a
    // loaded two-core machine has shown one shift of 0.00057 once, too small to see. The
    // elements that moved are named when it fails.
    const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
    expect(total, `${path}: ${JSON.stringify(shifts)}`).toBeLessThan(0.001);
    await context.close();
  }
});
