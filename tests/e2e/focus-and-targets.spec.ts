// WCAG 2.2 AA on every kind of page, at 360 and 1280 px: the fixed header never hides the element
// that has the keyboard focus (2.4.11), and every control is a target of at least 24 × 24 px
// (2.5.8), apart from the standard's own exception, a link inside a sentence. Motion is reduced
// so that focus scrolls at once: the check reads where the page comes to rest.
import type { Page } from "@playwright/test";
import { expect, signInAdmin, test, VISITOR_PAGES } from "./fixtures";

test.use({ reducedMotion: "reduce" });

/** Controls smaller than 24 × 24 px, apart from links that sit inside a line of text. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])",
    );
    for (const control of controls) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (getComputedStyle(control).visibility === "hidden") continue;
      if (box.width >= 24 && box.height >= 24) continue;
      // A visually hidden file input: its label, a button, is what one presses.
      const label = control instanceof HTMLInputElement ? control.labels?.[0] : null;
      if (label) {
        const target = label.getBoundingClientRect();
        if (target.width >= 24 && target.height >= 24) continue;
      }
      // The exception for a link in a sentence: inline, with more words around it.
      const block = control.closest("p, li, dd, td");
      const inSentence =
        getComputedStyle(control).display === "inline" &&
        !!block &&
        (block.textContent ?? "").trim().length > (control.textContent ?? "").trim().length + 3;
      if (inSentence) continue;
      const name = (control.textContent || control.getAttribute("aria-label") || control.tagName)
        .trim()
        .slice(0, 40);
      found.push(`${name} (${Math.round(box.width)}×${Math.round(box.height)})`);
    }
    return found;
  });
}

/** Tabs through the page and back; the focused elements the header covers when each has it. */
async function focusHiddenByHeader(page: Page, presses = 30): Promise<string[]> {
  const hidden: string[] = [];
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  // Forward, then back: going back brings each element in from above, where the header is.
  for (let i = 0; i < presses * 2; i++) {
    await page.keyboard.press(i < presses ? "Tab" : "Shift+Tab");
    const covered = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      // Its first line box (a link broken over two lines has a rectangle wider than its words),
      // at its top edge, where a fixed header would cover it first.
      const box = element.getClientRects()[0] ?? element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return null;
      const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(box.top + 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      if (!hit || element.contains(hit) || hit.contains(element)) return null;
      // Only what stays in place over the page counts: the header, or anything fixed or sticky.
      let cover: Element | null = hit;
      while (cover && !["fixed", "sticky"].includes(getComputedStyle(cover).position))
        cover = cover.parentElement;
      if (!cover) return null;
      // A visually hidden input is shown by its label.
      const label = element instanceof HTMLInputElement ? element.labels?.[0] : null;
      if (label && (label.contains(hit) || hit.contains(label))) return null;
      return `${(element.textContent || element.getAttribute("aria-label") || element.tagName).trim().slice(0, 40)} (bajo ${hit.tagName.toLowerCase()}.${hit.className})`;
    });
    if (covered) hidden.push(covered);
  }
  return hidden;
}

for (const width of [360, 1280]) {
  test(`visitors' pages at ${width} px: focus never under the header, targets of 24 px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 720 });
    await page.goto("/eventos");
    const eventHref = await page.locator('a[href^="/detalles/"]').first().getAttribute("href");
    for (const path of [...VISITOR_PAGES, eventHref!]) {
      await page.goto(path);
      expect(await smallTargets(page), path).toEqual([]);
      expect(await focusHiddenByHeader(page), path).toEqual([]);
    }
  });

  test(`admin and member pages at ${width} px: focus never under the header, targets of 24 px`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 720 });
    await signInAdmin(page);
    await page.goto("/eventos");
    const eventHref = await page.locator('a[href^="/detalles/"]').first().getAttribute("href");
    const id = eventHref!.split("/").at(-1)!;
    for (const path of [
      "/admin",
      "/admin/sitio",
      `/admin/eventos/${id}`,
      `/admin/eventos/${id}/sesiones`,
      `/admin/eventos/${id}/galeria`,
      `/admin/eventos/${id}/horario`,
      `/admin/eventos/${id}/certificado`,
      `/admin/eventos/${id}/personal`,
      `/admin/eventos/${id}/participantes`,
      `/admin/eventos/${id}/registro`,
      "/admin/auditoria",
      "/tesoreria",
      "/tesoreria/pagos?ver=todos",
      "/profile",
      "/mis-entradas",
      "/projectsandnotes",
      eventHref!,
    ]) {
      await page.goto(path);
      expect(await smallTargets(page), path).toEqual([]);
      expect(await focusHiddenByHeader(page), path).toEqual([]);
    }
  });
}
