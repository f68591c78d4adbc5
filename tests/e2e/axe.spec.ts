// The accessibility check every browser test uses (fixtures.ts) finds what it is there to find.
import { expect, expectNoAxeViolations, test } from "./fixtures";

test("the axe check fails on a page with violations and names them", async ({ page }) => {
  await page.setContent(
    `<!doctype html><html lang="es"><head><title>Prueba</title></head><body><main>
      <h1>Prueba</h1>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
      <p style="color:#bbb;background:#fff">Texto con poco contraste</p>
    </main></body></html>`,
  );
  const failure = await expectNoAxeViolations(page).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failure).toContain("image-alt");
  expect(failure).toContain("color-contrast");
  // A second check on the same document reuses the axe already in the page.
  await page.evaluate(() => document.querySelector("img")!.setAttribute("alt", "Punto"));
  await page.evaluate(() => document.querySelector("p")!.setAttribute("style", "color:#222"));
  await expectNoAxeViolations(page);
});
