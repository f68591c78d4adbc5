// What the judge's screen's browser tests share: a competition of one format with its teams in
// play and a judge on a phone, made through the site's own form posts, and the screen once it is
// ready to work without a connection.
import type { Browser, Page } from "@playwright/test";
import { createMember, expect, publishEvent, workerBaseUrl, laPaz } from "./fixtures";

export function poster(page: Page) {
  const origin = new URL(workerBaseUrl()).origin;
  return async (url: string, form: Record<string, string>) => {
    const reply = await page.request.post(url, {
      form,
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status(), `${url}: ${await reply.text()}`).toBeLessThan(400);
    return reply;
  };
}

export type Format = "tiempo" | "llaves" | "puntaje";

/**
 * A competition of one category of `format` with `teams` competing (each a member who registered
 * it, approved, checked in at the door with their pass, its robot passed), and a judge of it on a
 * phone (360 × 780 unless `phoneSize` says otherwise). Returns the judge's page and the screen's
 * address. Remove it after the test with `removeCompetitions`.
 */
export async function competition(
  admin: Page,
  browser: Browser,
  baseURL: string | undefined,
  format: Format,
  category: string,
  teams: string[],
  phoneSize = { width: 360, height: 780 },
) {
  const post = poster(admin);
  const eventId = await publishEvent(
    admin,
    `Copa ${category} ${Math.random().toString(16).slice(2, 6)}`,
  );
  const deadline = laPaz(90);
  const start = laPaz(120);
  await post(`/admin/eventos/${eventId}/categorias`, {
    intent: "addCategory",
    nombre: category,
    nivel: "universidad",
    minimo: "1",
    maximo: "3",
    entrenador: "no",
    reglas: "",
    peso: "",
    tamano: "",
    cupo: "",
    cuota: "",
    fechaCierre: deadline.fecha,
    horaCierre: deadline.hora,
    fechaInicio: start.fecha,
    horaInicio: start.hora,
    formato: format,
  });
  const editor = await (await admin.request.get(`/admin/eventos/${eventId}/categorias`)).text();
  const categoryId = new RegExp(`href="/admin/eventos/${eventId}/jurado/([0-9a-f-]{36})"`).exec(
    editor,
  )?.[1];
  expect(categoryId).toBeTruthy();
  const members = await browser.newContext({ baseURL });
  for (const name of teams) {
    await members.clearCookies();
    const page = await members.newPage();
    await createMember(page, { nombreCompleto: `Capitana de ${name}` });
    const created = await poster(page)(`/equipos/nuevo?categoria=${categoryId}`, {
      categoryId: categoryId!,
      nombre: name,
      colegio: `Colegio ${name}`,
      ciudad: "La Paz",
      robot: `Robot ${name}`,
    });
    const teamId = new URL(created.headers().location!, workerBaseUrl()).pathname.split("/").pop()!;
    await post(`/admin/eventos/${eventId}/equipos`, {
      intent: "review",
      teamId,
      decision: "aprobar",
      visto: "pending",
    });
    const passes = await (await page.request.get("/mis-entradas")).text();
    const code = /class="checkin-pass-code">([^<]+)</.exec(passes)?.[1];
    expect(code, "el pase de la capitana").toBeTruthy();
    const checkedIn = await post(`/admin/eventos/${eventId}/registro/datos`, { codigo: code! });
    expect(await checkedIn.json()).toMatchObject({ ok: true });
    await post(`/admin/eventos/${eventId}/inspeccion`, {
      intent: "inspect",
      teamId,
      resultado: "passed",
    });
    await page.close();
  }
  await members.close();
  const phone = await browser.newContext({ baseURL, viewport: phoneSize });
  const judgePage = await phone.newPage();
  const judge = await createMember(judgePage, { nombreCompleto: "Julia Jueza" });
  await post(`/admin/eventos/${eventId}`, {
    intent: "grantRole",
    visto: "sin-rol",
    email: judge.email,
    kind: "judge",
    categoryId: categoryId!,
  });
  made.push(eventId);
  return {
    eventId,
    categoryId: categoryId!,
    path: `/admin/eventos/${eventId}/jurado/${categoryId}`,
    judge: judgePage,
    phone,
  };
}

// Each test's competition starts within the hour (its door is open): the server is shared with the
// other files of this worker (the landing page lists the next three events), so it goes after.
const made: string[] = [];

/** Deletes the competitions made since the last call, as the signed-in admin of `page`. */
export async function removeCompetitions(page: Page) {
  const origin = new URL(workerBaseUrl()).origin;
  for (const eventId of made.splice(0)) {
    const reply = await page.request.post("/admin", {
      form: { intent: "delete", eventId },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status()).toBe(302);
  }
}

/** The screen, once its script has the state on the phone and its service worker keeps it. */
export async function openScreen(page: Page, path: string) {
  await page.goto(path);
  await expect(status(page)).toContainText("Nada pendiente");
  await expect
    .poll(() => page.evaluate(async () => Boolean(await caches.match(location.pathname))))
    .toBe(true);
}

export function status(page: Page) {
  return page.locator(".judge-status");
}

/** The message left by the admin's last form post, if any, out of the way. */
export async function dismissFlash(page: Page) {
  const alert = page.getByRole("alertdialog");
  if (await alert.isVisible()) await alert.getByRole("button", { name: "OK" }).click();
}
