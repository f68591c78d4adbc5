// A visitor's page answered from the page cache runs in the browser under its hash-based
// Content-Security-Policy: no violation, the scripts hydrate, client navigation works.
import { expect, expectNoAxeViolations, test } from "./fixtures";

test("a page from the cache runs its scripts under the hash-based policy, with no console error", async ({
  page,
}) => {
  let cached = null as { etag: string | null; policy: string | null } | null;
  for (let attempt = 0; attempt < 20 && !cached?.etag; attempt++) {
    const response = await page.goto("/eventos");
    const headers = response!.headers();
    cached = { etag: headers["etag"] ?? null, policy: headers["content-security-policy"] ?? null };
  }
  expect(cached!.etag).not.toBeNull();
  expect(cached!.policy).toContain("'sha256-");
  expect(cached!.policy).not.toContain("nonce-");
  // Hydrated: a client-side navigation happens without a document request.
  await page.waitForFunction(() => "__reactRouterRouteModules" in window);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page.getByRole("link", { name: "Ayllu, inicio" }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
  expect(documents).toEqual([]);
  await expectNoAxeViolations(page);
});
