// An event's page shared the way people share it: the phone's share sheet where the browser has
// one, else the link copied, and said. (Issue 36 makes WhatsApp the first way.)
import { expect, expectNoAxeViolations, test, untilHydrated } from "./fixtures";

const DEMO_EVENT = "Taller de Arduino para principiantes";

async function openDemoEvent(page: import("@playwright/test").Page) {
  await page.goto("/eventos");
  await page.getByRole("link", { name: DEMO_EVENT }).click();
  await expect(page.getByRole("heading", { level: 1, name: DEMO_EVENT })).toBeVisible();
  await untilHydrated(page);
}

test("'Compartir' without a share sheet copies the event's link and says so (360 px)", async ({
  page,
  context,
  baseURL,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  // Chromium on Linux has no share sheet; make sure of it.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
  });
  await openDemoEvent(page);
  const share = page.getByRole("button", { name: "Compartir" });
  const box = (await share.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(24);
  await share.click();
  await expect(page.getByRole("status").filter({ hasText: "Enlace copiado" })).toHaveText(
    "Enlace copiado. Pégalo donde quieras compartirlo.",
  );
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(new URL(page.url()).toString());
  expect(copied).toMatch(/\/detalles\/[0-9a-f-]{36}$/);
  await expectNoAxeViolations(page);
});

test("'Compartir' opens the phone's share sheet with the event's name and link", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const shared: ShareData[] = [];
    Object.defineProperty(window, "__shared", { value: shared });
    Object.defineProperty(Navigator.prototype, "share", {
      value: (data: ShareData) => {
        shared.push(data);
        return Promise.resolve();
      },
      configurable: true,
    });
  });
  await openDemoEvent(page);
  await page.getByRole("button", { name: "Compartir" }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared))
    .toEqual([{ title: DEMO_EVENT, url: page.url() }]);
  await expect(page.getByText("Enlace copiado")).toHaveCount(0);
});

test("where copying is refused, the link is shown selected to copy by hand", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "share", { value: undefined, configurable: true });
    Object.defineProperty(Navigator.prototype, "clipboard", {
      value: { writeText: () => Promise.reject(new DOMException("No", "NotAllowedError")) },
      configurable: true,
    });
  });
  await openDemoEvent(page);
  await page.getByRole("button", { name: "Compartir" }).click();
  const field = page.getByLabel("Copia este enlace para compartir el evento");
  await expect(field).toHaveValue(page.url());
  await expect(field).toBeFocused();
  await expectNoAxeViolations(page);
});

test("without JavaScript the page shows no 'Compartir' that could not work", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/eventos");
  await page.getByRole("link", { name: DEMO_EVENT }).click();
  await expect(page.getByRole("heading", { level: 1, name: DEMO_EVENT })).toBeVisible();
  await expect(page.getByRole("button", { name: "Compartir" })).toHaveCount(0);
  await context.close();
});
