// What a first visit weighs on a phone (docs/decisions/049-light-mode.md): every public page at
// 360 px, in a fresh browser, the bytes transferred (HTML, CSS, scripts — those started after the
// first paint too —, fonts and the pictures the page loads, headers included) stay within 200 KB,
// and within 60 KB in light mode, where no script is fetched at all. Light mode's pages pass axe,
// and their menus open without scripts.
import type { Browser, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test, untilHydrated, VISITOR_PAGES } from "./fixtures";

const NORMAL_BUDGET = 200 * 1024;
const LIGHT_BUDGET = 60 * 1024;
/** Scripts the browser runs (structured data is not one). */
const RUNNABLE_SCRIPT = 'script:not([type="application/ld+json"])';

const ITEMS: Array<[string, RegExp]> = [
  ["/eventos", /href="(\/detalles\/[0-9a-f-]{36})"/],
  ["/notas", /href="(\/notas\/[0-9a-f-]{36})"/],
  ["/recursos", /href="(\/recursos\/[0-9a-f-]{36})"/],
  ["/proyectos", /href="(\/proyectos\/[0-9a-f-]{36})"/],
];

/** The public pages: the lists, and the first item each list links to (the demo's). */
async function publicPages(page: Page): Promise<string[]> {
  const pages = [...VISITOR_PAGES];
  for (const [list, pattern] of ITEMS) {
    const html = await (await page.request.get(list)).text();
    const item = pattern.exec(html)?.[1];
    expect(item, `${list} enlaza a un elemento`).toBeTruthy();
    pages.push(item!);
  }
  return pages;
}

interface Weight {
  total: number;
  scripts: number;
  fonts: number;
  lines: string[];
}

/** Loads `path` in a fresh context at 360 px and adds up what went over the network. */
async function firstVisit(
  browser: Browser,
  baseURL: string,
  path: string,
  light: boolean,
): Promise<Weight> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 740 },
    extraHTTPHeaders: light ? { "Save-Data": "on" } : {},
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const requests = new Map<string, { url: string; type: string; bytes: number }>();
    cdp.on("Network.responseReceived", (event) =>
      requests.set(event.requestId, { url: event.response.url, type: event.type, bytes: 0 }),
    );
    cdp.on("Network.loadingFinished", (event) => {
      const request = requests.get(event.requestId);
      if (request) request.bytes = event.encodedDataLength;
    });
    await page.goto(path, { waitUntil: "load" });
    if (!light) await untilHydrated(page);
    await page.waitForLoadState("networkidle");
    const all = [...requests.values()];
    const sum = (list: typeof all) => list.reduce((total, r) => total + r.bytes, 0);
    return {
      total: sum(all),
      scripts: sum(all.filter((r) => r.type === "Script")),
      fonts: sum(all.filter((r) => r.type === "Font")),
      lines: all.map((r) => `${(r.bytes / 1024).toFixed(1)} KB ${r.type} ${r.url}`),
    };
  } finally {
    await context.close();
  }
}

test("every public page's first visit at 360 px stays within 200 KB, and 60 KB in light mode", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  for (const path of await publicPages(page)) {
    const normal = await firstVisit(browser, baseURL!, path, false);
    const light = await firstVisit(browser, baseURL!, path, true);
    const report = (weight: Weight) => `${path}:\n  ${weight.lines.join("\n  ")}`;
    expect(normal.total, report(normal)).toBeLessThanOrEqual(NORMAL_BUDGET);
    expect(normal.scripts, report(normal)).toBeGreaterThan(0);
    expect(light.total, report(light)).toBeLessThanOrEqual(LIGHT_BUDGET);
    expect(light.scripts, report(light)).toBe(0);
    expect(light.fonts, report(light)).toBe(0);
  }
});

test("light mode's pages pass axe, and their menus open without scripts, by keyboard too", async ({
  browser,
  baseURL,
  page,
}) => {
  const pages = await publicPages(page);
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 360, height: 740 },
    extraHTTPHeaders: { "Save-Data": "on" },
  });
  try {
    const light = await context.newPage();
    for (const path of pages) {
      await light.goto(path, { waitUntil: "load" });
      await expectNoAxeViolations(light);
    }
    await light.goto("/eventos", { waitUntil: "load" });
    const toggle = light.locator("summary.nav-toggle");
    await toggle.focus();
    await light.keyboard.press("Enter");
    const notes = light.locator(".nav-disclosure").getByRole("link", { name: "Notas" });
    await expect(notes).toBeVisible();
    await notes.click();
    await expect(light).toHaveURL(/\/notas$/);
    // Still light, from the cookie-less Save-Data: no script on the next page either.
    expect(await light.locator(RUNNABLE_SCRIPT).count()).toBe(0);
  } finally {
    await context.close();
  }
});

test("the top menu's 'Modo liviano' works without JavaScript and is remembered until turned off", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto("/notas", { waitUntil: "load" });
    expect(await page.locator("script[src], link[rel=preload][as=font]").count()).toBeGreaterThan(
      0,
    );
    await page.getByRole("button", { name: "Modo liviano" }).click();
    await expect(page).toHaveURL(/\/notas$/);
    await expect(page.locator("html")).toHaveAttribute("data-liviano", "");
    await page.goto("/eventos", { waitUntil: "load" });
    await expect(page.locator("html")).toHaveAttribute("data-liviano", "");
    expect(await page.locator(RUNNABLE_SCRIPT).count()).toBe(0);
    await page.getByRole("button", { name: "Desactivar el modo liviano" }).click();
    await expect(page).toHaveURL(/\/eventos$/);
    await expect(page.locator("html")).not.toHaveAttribute("data-liviano", "");
  } finally {
    await context.close();
  }
});
