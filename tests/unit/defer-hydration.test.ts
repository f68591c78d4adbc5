// The document React Router writes is changed so that its scripts are fetched after the first
// paint; anything else is left as it is.
import { JSDOM, VirtualConsole } from "jsdom";
import { describe, expect, it, vi } from "vitest";
import { deferHydration, HYDRATION_SCRIPT_ID } from "~/kernel/defer-hydration.server";

const NONCE = "bm9uY2Utb2YtdGhpcy1wYWdl";
const CODE = `;
import * as route0 from "/assets/root-A1.js";
  window.__reactRouterRouteModules = {"root":route0};

import("/assets/entry.client-B2.js");`;

function page(nonce: string | null): string {
  const n = nonce === null ? "" : ` nonce="${nonce}"`;
  return (
    `<!DOCTYPE html><html lang="es"><head><meta charSet="utf-8"/>` +
    `<link rel="modulepreload" href="/assets/entry.client-B2.js"${n}/>` +
    `<link rel="modulepreload" href="/assets/root-A1.js"${n}/>` +
    `<link${n} rel="stylesheet" href="/assets/root-C3.css"/></head><body><main>Hola</main>` +
    `<script${n}>window.__reactRouterContext = { streamController: { close() {} } };</script>` +
    `<script${n} type="module" async="">${CODE}</script>` +
    `<script${n}>window.__reactRouterContext.streamController.close();</script></body></html>`
  );
}

/** A page in jsdom whose script errors fail the test. */
function browser(html: string, options: ConstructorParameters<typeof JSDOM>[1] = {}) {
  const errors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on("jsdomError", (error) => errors.push(error.message));
  const dom = new JSDOM(html, { runScripts: "dangerously", virtualConsole, ...options });
  return { dom, errors };
}

describe("deferHydration", () => {
  it("takes out the module preloads and makes the module script inert, keeping its text", () => {
    const html = deferHydration(page(NONCE));
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain(
      `<script nonce="${NONCE}" type="text/x-hydration" id="${HYDRATION_SCRIPT_ID}">${CODE}</script>`,
    );
    // The stylesheet and the other inline scripts are untouched.
    expect(html).toContain(`<link nonce="${NONCE}" rel="stylesheet" href="/assets/root-C3.css"/>`);
    expect(html).toContain(
      `<script nonce="${NONCE}">window.__reactRouterContext = { streamController: { close() {} } };</script>`,
    );
  });

  it("adds a loader with the page's nonce that preloads the same modules after the first paint", () => {
    const html = deferHydration(page(NONCE));
    const loader = html.match(/<script nonce="([^"]*)">(\(function\(\)[\s\S]*?)<\/script>/);
    expect(loader?.[1]).toBe(NONCE);
    const code = loader![2]!;
    expect(code).toContain('["/assets/entry.client-B2.js","/assets/root-A1.js"]');
    expect(code).toContain('getEntriesByName("first-contentful-paint")');
    expect(code).toContain("requestAnimationFrame(function(){setTimeout(start)})");
    expect(code).toContain(`getElementById("${HYDRATION_SCRIPT_ID}")`);
    // The loader comes where the module script was: after the page's content.
    expect(html.indexOf(code)).toBeGreaterThan(html.indexOf("<main>"));
  });

  it("works on a page without nonces", () => {
    const html = deferHydration(page(null));
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toMatch(/<script>\(function\(\)\{var d=document/);
  });

  it("leaves a document it does not recognise as it is", () => {
    const twoModules = page(NONCE).replace(
      "</body>",
      `<script type="module" async="">;</script></body>`,
    );
    expect(deferHydration(twoModules)).toBe(twoModules);
    const noPreloads = page(NONCE).replaceAll(/<link rel="modulepreload"[^>]*>/g, "");
    expect(deferHydration(noPreloads)).toBe(noPreloads);
    const foreignPreload = page(NONCE).replace('/assets/root-A1.js"', 'https://cdn.example/x.js"');
    expect(deferHydration(foreignPreload)).toBe(foreignPreload);
    expect(deferHydration("<p>texto</p>")).toBe("<p>texto</p>");
  });

  it("in a browser, starts the scripts once the first contentful paint is reported", async () => {
    let report: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
    const { dom, errors } = browser(deferHydration(page(NONCE)), {
      beforeParse(window) {
        class PaintObserver {
          static supportedEntryTypes = ["paint"];
          constructor(callback: typeof report) {
            report = callback;
          }
          observe() {}
          disconnect() {}
        }
        Object.assign(window, { PerformanceObserver: PaintObserver });
      },
    });
    const { document } = dom.window;
    const added = () =>
      document.querySelectorAll('link[rel="modulepreload"], script[type="module"]');
    expect(report).toBeDefined();
    report!({ getEntriesByName: () => [] });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(added()).toHaveLength(0);

    report!({ getEntriesByName: (name) => (name === "first-contentful-paint" ? [{}] : []) });
    // The preloads go in a few per task, the module script in the task after them.
    await vi.waitFor(() => expect(document.querySelector('script[type="module"]')).not.toBeNull());
    const preloads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
    expect(preloads.map((link) => link.getAttribute("href"))).toEqual([
      "/assets/entry.client-B2.js",
      "/assets/root-A1.js",
    ]);
    expect(preloads.every((link) => link.parentElement === document.head)).toBe(true);
    const module = document.querySelector('script[type="module"]');
    expect(module?.textContent).toBe(CODE);
    expect(errors).toEqual([]);
    dom.window.close();
  });

  it("in a browser, remembers each script-only button pressed before React listens, once", () => {
    const html = deferHydration(page(NONCE)).replace(
      "<main>Hola</main>",
      '<main><button type="button" id="menu">Menú</button>' +
        '<form><button id="enviar">Enviar</button></form></main>',
    );
    // Without paint timing: the loader waits for the first frame.
    const { dom, errors } = browser(html, { pretendToBeVisual: true });
    const { document } = dom.window;
    const menu = document.getElementById("menu")!;
    menu.click();
    menu.click();
    document.getElementById("enviar")!.click();
    const held = (dom.window as unknown as { __botonesPulsados: () => Element[] })
      .__botonesPulsados;
    expect(held()).toEqual([menu]);
    // From then on React handles the presses.
    menu.click();
    expect(held()).toEqual([menu]);
    // jsdom does not submit forms; a browser would have sent this one.
    expect(errors.filter((message) => !message.includes("HTMLFormElement"))).toEqual([]);
    dom.window.close();
  });
});
