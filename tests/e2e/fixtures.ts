// What every browser test shares: a page that fails the test on any console error or uncaught
// exception, an axe check, and signing in through the real development provider.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, RunOptions } from "axe-core";
import path from "node:path";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { e2eBaseUrl } from "./servers";

import { inLaPaz } from "../helpers/la-paz";

export { inLaPaz };

export { expect };

/** Console errors a test expects (an asked-for 404, say); anything else fails the test. */
export class ConsoleErrors {
  readonly allowed: RegExp[] = [];
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }
}

/**
 * Pages are painted before their scripts are fetched (docs/decisions/025): a test that acts at
 * once could find a page React has not hydrated yet. Its forms then post as plain HTML, which
 * works but answers differently (a refused form is a 400 document, not a 400 `.data` fetch). So
 * every `goto` waits until the page has hydrated, as a person's first action usually does; pages
 * without our scripts (JavaScript off, a file) do not wait. `goto(url, { waitUntil })` keeps
 * Playwright's own behaviour, for the tests of the time before hydration (first-paint.spec.ts).
 */
export async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    if (typeof (window as { __botonesPulsados?: unknown }).__botonesPulsados !== "function")
      return true;
    const main = document.querySelector("main");
    return !!main && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
}

const WAITS_FOR_HYDRATION = Symbol("waitsForHydration");

function gotoWaitsForHydration(page: Page): void {
  const prototype = Object.getPrototypeOf(page) as Page & { [WAITS_FOR_HYDRATION]?: true };
  if (prototype[WAITS_FOR_HYDRATION]) return;
  prototype[WAITS_FOR_HYDRATION] = true;
  const goto = prototype.goto;
  prototype.goto = async function (this: Page, url, options) {
    const response = await goto.call(this, url, options);
    if (options?.waitUntil === undefined) await untilHydrated(this);
    return response;
  };
}

/** The public pages that list things (and /login): what a visitor reaches from the header. */
export const VISITOR_PAGES = [
  "/",
  "/events",
  "/clase1",
  "/eventos",
  "/notas",
  "/recursos",
  "/proyectos",
  "/login",
];

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  // The server this worker's tests use (tests/e2e/servers.ts).
  baseURL: async ({}, use, testInfo) => {
    await use(e2eBaseUrl(testInfo.parallelIndex));
  },
  consoleErrors: async ({}, use) => {
    await use(new ConsoleErrors());
  },
  page: async ({ page, consoleErrors }, use) => {
    // Also the pages of contexts a test opens itself: they share the prototype.
    gotoWaitsForHydration(page);
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const { url, lineNumber } = message.location();
      const text = `${message.text()}${url ? ` (${url}${lineNumber ? `:${lineNumber}` : ""})` : ""}`;
      if (!consoleErrors.allowed.some((pattern) => pattern.test(text)))
        errors.push(`console.error: ${text}`);
    });
    page.on("pageerror", (error) => errors.push(`uncaught: ${error.stack ?? error.message}`));
    await use(page);
    expect(errors, `errores en la consola del navegador:\n${errors.join("\n")}`).toEqual([]);
  },
});

const AXE_OPTIONS: RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
  // The only frames are YouTube's players (and, offline, their error pages): ours is the page
  // around them, where axe still checks each frame's title.
  iframes: false,
  resultTypes: ["violations"],
};
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/**
 * Runs axe on the page as it is now and fails with a readable list of what it found. axe is
 * put into the page once per document and run there directly: @axe-core/playwright injects it
 * again on every call and opens a page of its own to assemble the results, which made the axe
 * checks a third of the browser tests' processor time.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await page.evaluate(`window.axe || (() => { ${AXE_SOURCE}\n})()`);
  const results = await page.evaluate(
    (options) =>
      (
        window as unknown as {
          axe: { run(context: Document, options: unknown): Promise<AxeResults> };
        }
      ).axe.run(document, options),
    AXE_OPTIONS,
  );
  const report = results.violations
    .map((violation) => {
      const nodes = violation.nodes
        .map(
          (node) =>
            `    - ${node.target.join(" ")}\n      ${node.failureSummary?.replaceAll("\n", "\n      ") ?? ""}`,
        )
        .join("\n");
      return `[${violation.impact ?? "?"}] ${violation.id}: ${violation.help}\n  ${violation.helpUrl}\n${nodes}`;
    })
    .join("\n\n");
  expect(results.violations.length, `axe en ${page.url()}:\n${report}`).toBe(0);
}

export interface DevAccount {
  email: string;
  name?: string;
  verified?: boolean;
}

/** An e-mail no other test (or earlier run on the same database) has used. */
export function freshEmail(prefix = "miembro"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}@ayllu.test`;
}

/**
 * Signs in the way a person does: 'Iniciar Sesión con Google' on /login, then the development
 * provider's form. Resolves once the site has taken the browser back from the provider.
 */
export async function signInWithDevProvider(page: Page, account: DevAccount): Promise<void> {
  if (new URL(page.url(), "http://x").pathname !== "/login") await page.goto("/login");
  await page.getByRole("button", { name: "Iniciar Sesión con Google" }).click();
  await page.waitForURL(/\/__dev\/oidc\/interaction\//);
  await page.getByLabel("Correo electrónico").fill(account.email);
  if (account.name) await page.getByLabel("Nombre de la cuenta (opcional)").fill(account.name);
  await page.getByLabel("Correo verificado").setChecked(account.verified ?? true);
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.waitForURL(
    (url) => !url.pathname.startsWith("/__dev/") && !url.pathname.startsWith("/auth/"),
  );
}

/** The first form of a page: where it posts and its hidden fields. */
function formOf(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[input[1]!] = input[2]!;
  return { action: form[1]!.replaceAll("&amp;", "&"), fields };
}

/**
 * Signs in with the same requests the pages make (POST /login, the development provider's form,
 * the callback), sent from the page's own cookie jar without rendering those pages: for journeys
 * about something else. Resolves with the path the site sent the browser to afterwards.
 */
export async function signInOverHttp(page: Page, account: DevAccount): Promise<string> {
  const origin = new URL(workerBaseUrl()).origin;
  const start = await page.request.post("/login", { form: {}, headers: { Origin: origin } });
  const login = formOf(await start.text());
  if (!start.ok() || !login)
    throw new Error(`No apareció el formulario del proveedor: ${start.status()} ${start.url()}`);
  let reply = await page.request.post(new URL(login.action, origin).href, {
    form: {
      email: account.email,
      name: account.name ?? "",
      ...(account.verified === false ? {} : { verified: "1" }),
    },
  });
  // When this browser was signed in to the provider as someone else, the provider first ends that
  // session with a page whose script posts a form; a browser without script posts it by hand.
  for (let hops = 0; hops < 3 && new URL(reply.url()).pathname.startsWith("/__dev/"); hops++) {
    const next = formOf(await reply.text());
    if (!next) break;
    reply = await page.request.post(new URL(next.action, origin).href, { form: next.fields });
  }
  const path = new URL(reply.url()).pathname;
  if (!reply.ok() || path.startsWith("/login") || path.startsWith("/__dev/"))
    throw new Error(`El inicio de sesión no terminó: ${reply.status()} ${reply.url()}`);
  return path;
}

/** Sends the additional data form as the page would, and takes its "saved" message. */
export async function completeProfileOverHttp(page: Page, data: MemberData): Promise<void> {
  const origin = new URL(workerBaseUrl()).origin;
  const reply = await page.request.post("/aditionaldata", {
    form: { ...data },
    headers: { Origin: origin },
  });
  if (!reply.ok() || new URL(reply.url()).pathname === "/aditionaldata")
    throw new Error(`No se pudo completar el perfil: ${reply.status()} ${reply.url()}`);
}

/** The base URL of the running test's worker (the one its `baseURL` fixture holds). */
export function workerBaseUrl(): string {
  return e2eBaseUrl(test.info().parallelIndex);
}

export interface MemberData {
  nombreCompleto: string;
  fechaNacimiento: string;
  pais: string;
  ciudad: string;
  genero: "Masculino" | "Femenino" | "Otro";
  habilidades: string;
}

export function memberData(overrides: Partial<MemberData> = {}): MemberData {
  return {
    nombreCompleto: `Ana Quispe ${randomBytes(2).toString("hex")}`,
    fechaNacimiento: "1994-03-21",
    pais: "Bolivia",
    ciudad: "Cochabamba",
    genero: "Femenino",
    habilidades: "",
    ...overrides,
  };
}

/** Fills the profile fields shared by /aditionaldata and the profile's edit view. */
export async function fillProfileFields(page: Page, data: Partial<MemberData>): Promise<void> {
  if (data.nombreCompleto !== undefined)
    await page.getByLabel("Nombre completo").fill(data.nombreCompleto);
  if (data.fechaNacimiento !== undefined)
    await page.getByLabel("Fecha de nacimiento").fill(data.fechaNacimiento);
  if (data.pais !== undefined) await page.getByLabel("País").fill(data.pais);
  if (data.ciudad !== undefined) await page.getByLabel("Ciudad").fill(data.ciudad);
  if (data.genero !== undefined) await page.getByLabel("Género").selectOption(data.genero);
  if (data.habilidades !== undefined) await page.getByLabel("Habilidades").fill(data.habilidades);
}

/**
 * A member who signed in for the first time and completed /aditionaldata, on the home page. The
 * requests are the pages' own (see signInOverHttp); the member journey goes through the pages.
 */
export async function createMember(
  page: Page,
  overrides: Partial<MemberData> = {},
): Promise<MemberData & { email: string }> {
  const email = freshEmail();
  const data = memberData(overrides);
  expect(await signInOverHttp(page, { email })).toBe("/aditionaldata");
  await completeProfileOverHttp(page, data);
  await page.goto("/");
  return { ...data, email };
}

/** The e2e servers' admin (ADMIN_EMAILS in playwright.config.ts). */
export const E2E_ADMIN = "admin-e2e@ayllu.test";

/** Signs in as an admin (by default the e2e admin, 'Admin E2E') with a completed profile. */
export async function signInAdmin(
  page: Page,
  email = E2E_ADMIN,
  nombreCompleto = "Admin E2E",
): Promise<void> {
  if ((await signInOverHttp(page, { email, name: nombreCompleto })) === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto }));
}

/** The admin signed in on a phone's screen (360 × 780 px), as the competition specs begin. */
export async function signInAdminOnPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 360, height: 780 });
  await signInAdmin(page);
}

/** The date and time in La Paz `minutes` from now, as the category form takes them. */
export function laPaz(minutes: number) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/La_Paz",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(Date.now() + minutes * 60_000));
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    fecha: `${part("year")}-${part("month")}-${part("day")}`,
    hora: `${part("hour")}:${part("minute")}`,
  };
}

/** Answers the app's alert that says `text` with its OK button, and waits until it is gone. */
export async function okAlert(page: Page, text: string | RegExp): Promise<void> {
  const alert = page.getByRole("alertdialog").filter({ hasText: text });
  await expect(alert).toBeVisible();
  await alert.getByRole("button", { name: "OK" }).click();
  await expect(alert).toBeHidden();
}

/**
 * The page at 360 and 1280 px into SHOTS_DIR (when set): whole, or the screen with `part` at its
 * top, below the fixed header.
 */
export async function shoot(page: Page, name: string, part?: Locator): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width < 600 ? 780 : 900 });
    if (part) {
      await part.evaluate((element) => {
        element.scrollIntoView({ block: "start" });
        window.scrollBy(0, -80);
      });
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
    } else {
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Publishes an event with the panel's own form post, as the signed-in admin, and returns its id.
 * By default it starts in half an hour: the door takes the session under way from an hour before
 * its start (decision 044).
 */
export async function publishEvent(
  page: Page,
  name: string,
  options: { startsAt?: Date; ubicacion?: string; descripcion?: string; price?: string } = {},
): Promise<string> {
  const origin = new URL(workerBaseUrl()).origin;
  const starts = inLaPaz(options.startsAt ?? new Date(Date.now() + 30 * 60_000));
  const reply = await page.request.post("/admin", {
    headers: { Origin: origin },
    form: {
      intent: "publish",
      nombreEvento: name,
      ubicacionEvento: options.ubicacion ?? "Bolivia, La Paz",
      tipoEvento: "Presencial",
      fechaEvento: starts.fecha,
      horaEvento: starts.hora,
      imagenEnlace: `${origin}/demo/vision.svg`,
      ubicacionEspecifica: "",
      capacity: "",
      descripcion: options.descripcion ?? "Con registro en la puerta.",
      ...(options.price ? { price: options.price } : {}),
    },
  });
  expect(reply.ok(), await reply.text()).toBe(true);
  const panel = await (
    await page.request.get(`/admin?buscarEvento=${encodeURIComponent(name)}`)
  ).text();
  const link = new RegExp(`<a[^>]*aria-label="Participantes de ${name}"[^>]*>`).exec(panel)?.[0];
  const id = /href="\/admin\/eventos\/([0-9a-f-]{36})\/participantes"/.exec(link ?? "")?.[1];
  expect(id, "el evento publicado aparece en el panel").toBeTruthy();
  return id!;
}
