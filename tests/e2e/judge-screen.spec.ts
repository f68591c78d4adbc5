// The judge's screen (issue 39, points 1–2; decision 059) in a real browser at 360 px, one test
// per format: teams register, come through the door and pass inspection (the requests of the
// pages of decisions 052 and 055), an admin makes a member judge of the competition's three
// categories; the judge enters results, loses the connection, enters more (queued on the phone,
// the page opening again from the phone), and when the connection returns they are sent and
// stored. axe on every screen; screenshots at 360 and 1280 px go to SHOTS_DIR when it is set.
import type { BrowserContext, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, shoot, signInAdmin, test, okAlert } from "./fixtures";
import {
  competition,
  dismissFlash,
  openScreen,
  poster,
  removeCompetitions,
  status,
} from "./judge-setup";

test.afterEach(async ({ page }) => removeCompetitions(page));

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect(status(page)).toContainText("Sin conexión");
}

async function data(page: Page, path: string) {
  return (await page.request.get(`${path}/datos`)).json();
}

test("time trial: a judge enters runs, keeps entering without a connection (the screen opens again from the phone) and the queue is sent when it returns", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  await signInAdmin(page);
  const c = await competition(page, browser, baseURL, "tiempo", "Seguidor de línea", [
    "Los Cóndores",
    "Los Pumas",
  ]);
  const judge = c.judge;
  // The judge finds the screen on their profile.
  await judge.goto("/profile");
  await judge
    .getByRole("link", { name: /Jurado \(Seguidor de línea\).*anotar resultados/ })
    .click();
  await expect(judge).toHaveURL(new RegExp(`${c.path}$`));
  await openScreen(judge, c.path);
  await expect(judge.getByRole("heading", { level: 1 })).toHaveText("Seguidor de línea");
  // The rules are folded under the title, a tap away.
  await expect(judge.getByText("Desempate: Segundo mejor tiempo.")).toBeHidden();
  await judge.getByText("Reglas", { exact: true }).click();
  await expect(judge.getByText("Desempate: Segundo mejor tiempo.")).toBeVisible();

  await judge.getByLabel("Equipo").selectOption({ label: "Los Cóndores" });
  await expect(judge.getByRole("radio", { name: "1" })).toBeChecked();
  await judge.getByLabel("Tiempo", { exact: true }).fill("12,345");
  await judge.getByRole("button", { name: "Anotar vuelta" }).click();
  await expect(judge.locator(".judge-outcome")).toContainText("Anotado.");
  const team = judge.getByRole("region", { name: "Los Cóndores" });
  await expect(team).toContainText("Vuelta 1: 12,345 s");
  await expect(team).toContainText("Puesto actual: 1.º de 2");
  // The next run is chosen for the judge.
  await expect(judge.getByRole("radio", { name: "2" })).toBeChecked();
  await expectNoAxeViolations(judge);

  // ——— No connection: the run waits on the phone ———
  await goOffline(c.phone, judge);
  await judge.getByLabel("Tiempo", { exact: true }).fill("11.5");
  await judge.getByLabel("Penalización", { exact: true }).fill("1");
  await judge.getByRole("button", { name: "Anotar vuelta" }).click();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  await expect(judge.locator(".judge-outcome")).toContainText("Por enviar");
  await expect(team).toContainText("Vuelta 2: 11,500 s + 1,000 s de penalización (por enviar)");
  // The other team did not finish its first run.
  await judge.getByLabel("Equipo").selectOption({ label: "Los Pumas" });
  await judge.getByRole("checkbox", { name: "No terminó" }).check();
  await judge.getByRole("button", { name: "Anotar vuelta" }).click();
  await expect(status(judge)).toContainText("2 anotaciones esperan conexión; se enviarán solas.");
  await expectNoAxeViolations(judge);
  // Signing out now would delete them: the phone asks first, and 'Cancelar' keeps them.
  await judge.locator(".user-menu-button").click();
  await judge.getByRole("menuitem", { name: "Cerrar Sesión" }).click();
  const warning = judge.getByRole("alertdialog", { name: "Hay registros sin enviar" });
  await expect(warning).toContainText("Este teléfono tiene 2 anotaciones del jurado sin enviar.");
  await warning.getByRole("button", { name: "Cancelar" }).click();
  await expect(warning).toBeHidden();
  // Still offline, the screen opens again from the phone with its queue.
  await judge.reload();
  await expect(judge.getByRole("heading", { level: 1 })).toHaveText("Seguidor de línea");
  await expect(status(judge)).toContainText("Sin conexión");
  await expect(status(judge)).toContainText("2 anotaciones esperan conexión; se enviarán solas.");
  await expect(judge.getByRole("region", { name: "Anotaciones de este teléfono" })).toContainText(
    "Vuelta 2 de «Los Cóndores»: 11.5 s + 1 s",
  );

  // ——— The connection returns: the queue is sent, each entry says what happened ———
  await c.phone.setOffline(false);
  await expect(status(judge)).toContainText("En línea");
  await expect(status(judge)).toContainText("Nada pendiente");
  const log = judge.getByRole("region", { name: "Anotaciones de este teléfono" });
  await expect(log.getByText("Anotado.", { exact: true })).toHaveCount(3);
  const stored = await data(judge, c.path);
  expect(
    stored.runs.map((r: { attempt: number; timeMs: number | null; penaltyMs: number }) => [
      r.attempt,
      r.timeMs,
      r.penaltyMs,
    ]),
  ).toEqual(
    expect.arrayContaining([
      [1, 12345, 0],
      [2, 11500, 1000],
      [1, null, 0],
    ]),
  );
  await judge.getByLabel("Equipo").selectOption({ label: "Los Cóndores" });
  await expect(team).toContainText("Vuelta 2: 11,500 s + 1,000 s de penalización");
  await expect(team).not.toContainText("por enviar");
  await judge.evaluate(() => window.scrollTo(0, 0));
  await shoot(judge, "judge-time-trial");

  // ——— The session ends on the phone with a run waiting: it stays, and goes once signed in again ———
  const signedIn = await c.phone.cookies();
  await goOffline(c.phone, judge);
  await judge.getByLabel("Equipo").selectOption({ label: "Los Pumas" });
  await judge.getByRole("radio", { name: "2" }).check();
  await judge.getByLabel("Tiempo", { exact: true }).fill("14");
  await judge.getByRole("button", { name: "Anotar vuelta" }).click();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  await c.phone.clearCookies();
  await c.phone.setOffline(false);
  await expect(status(judge)).toContainText("tu sesión terminó");
  await expect(status(judge)).toContainText("1 anotación espera a que inicies sesión.");
  // Signed in again elsewhere (another tab); back on this screen, the run is sent at once.
  await c.phone.addCookies(signedIn);
  await judge.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(status(judge)).toContainText("Nada pendiente");
  await expect(status(judge)).not.toContainText("tu sesión terminó");
  await expect(judge.getByRole("region", { name: "Los Pumas" })).toContainText(
    "Vuelta 2: 14,000 s",
  );
  await c.phone.close();
});

test("bracket: the organiser draws it on the organisers' screen; the judge enters a match's rounds, the next one offline, and the final comes due on the phone before the connection returns", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  await signInAdmin(page);
  const c = await competition(page, browser, baseURL, "llaves", "Robot Sumo", [
    "Alfa",
    "Beta",
    "Delta",
  ]);
  const judge = c.judge;
  await openScreen(judge, c.path);
  await expect(judge.getByText("Las llaves todavía no están armadas")).toBeVisible();
  // The organiser (here the admin) goes from the screen to the category's organisers' screen
  // (decision 060) and draws it there.
  await page.goto(c.path);
  await dismissFlash(page);
  await page.getByRole("link", { name: "Organizar resultados" }).click();
  await page.getByRole("button", { name: "Sortear llaves" }).click();
  await okAlert(page, "Llaves sorteadas");
  await expectNoAxeViolations(page);

  await judge.reload();
  await expect(status(judge)).toContainText("Nada pendiente");
  // Three teams: the first seed passes without a rival; the other two play now.
  await expect(judge.getByText(/pasa a la ronda siguiente sin rival/)).toBeVisible();
  const match = judge.locator(".judge-match").first();
  await expect(match).toContainText("Semifinales");
  const buttons = match.getByRole("button", { name: /^Gana «/ });
  await expect(buttons).toHaveCount(2);
  const winner = ((await buttons.first().textContent()) ?? "").replace(/^Gana «|»$/g, "");
  for (const button of await buttons.all()) {
    const box = await button.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
  }
  await buttons.first().click();
  await expect(judge.locator(".judge-outcome")).toContainText("Anotado.");
  await expect(match).toContainText(`Ronda 1: ganó «${winner}»`);
  await expect(match).toContainText("Ronda 2: ¿quién ganó?");
  await expectNoAxeViolations(judge);

  // ——— Offline: round 2 decides the match on the phone, and the final comes due ———
  await goOffline(c.phone, judge);
  await match.getByRole("button", { name: `Gana «${winner}»` }).click();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  const final = judge.locator(".judge-match").first();
  await expect(final).toContainText("Final");
  await expect(final).toContainText(`«${winner}»`);
  await expect(judge.getByRole("region", { name: "Partidos decididos" })).toContainText(
    "(por enviar)",
  );
  await judge.reload();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  await expect(judge.locator(".judge-match").first()).toContainText("Final");

  await c.phone.setOffline(false);
  await expect(status(judge)).toContainText("Nada pendiente");
  await expect(
    judge
      .getByRole("region", { name: "Anotaciones de este teléfono" })
      .getByText("Anotado.", { exact: true }),
  ).toHaveCount(2);
  const stored = await data(judge, c.path);
  expect(Object.values(stored.bracket.played)).toEqual([[expect.any(String), expect.any(String)]]);
  await expect(judge.getByRole("region", { name: "Partidos decididos" })).not.toContainText(
    "por enviar",
  );
  await judge.evaluate(() => window.scrollTo(0, 0));
  await shoot(judge, "judge-bracket");
  await c.phone.close();
});

test("score sheet: the organiser sets the criteria on the organisers' screen; the judge sends sheets online and offline; an entry refused later (the role taken back) is shown with its message", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
  await signInAdmin(page);
  const c = await competition(page, browser, baseURL, "puntaje", "Reto escolar", [
    "Los Cóndores",
    "Las Llamas",
    "Los Zorros",
  ]);
  await page.goto(c.path);
  await dismissFlash(page);
  await page.getByRole("link", { name: "Organizar resultados" }).click();
  const rules = page.getByRole("region", { name: "Cómo se juzga" });
  await rules.getByLabel("Criterio 1", { exact: true }).fill("Diseño del robot");
  await rules.getByLabel("Máximo del criterio 1").fill("10");
  await rules.getByLabel("Criterio 2", { exact: true }).fill("Programación");
  await rules.getByLabel("Máximo del criterio 2").fill("20");
  await rules.getByRole("button", { name: "Guardar cómo se juzga" }).click();
  await okAlert(page, "Forma de juzgar guardada.");

  const judge = c.judge;
  await openScreen(judge, c.path);
  await judge.getByLabel("Equipo").selectOption({ label: "Los Cóndores" });
  await judge.getByLabel("Diseño del robot (máx. 10)").fill("8,5");
  await judge.getByLabel("Programación (máx. 20)").fill("17");
  await judge.getByRole("button", { name: "Enviar mi hoja" }).click();
  await expect(judge.locator(".judge-outcome")).toContainText("Anotado.");
  const mine = judge.getByRole("region", { name: "Mis hojas enviadas" });
  await expect(mine).toContainText("«Los Cóndores»: total 25,50");
  // The next sheet is another team's: the team is chosen again.
  await expect(judge.getByLabel("Equipo")).toHaveValue("");
  // A score out of range is said at once, and not queued.
  await judge.getByLabel("Equipo").selectOption({ label: "Las Llamas" });
  await judge.getByLabel("Diseño del robot (máx. 10)").fill("11");
  await judge.getByLabel("Programación (máx. 20)").fill("3");
  await judge.getByRole("button", { name: "Enviar mi hoja" }).click();
  await expect(
    judge.getByRole("alert").filter({ hasText: "Cada puntaje debe estar entre 0" }),
  ).toBeVisible();
  await expect(status(judge)).toContainText("Nada pendiente");
  await expectNoAxeViolations(judge);

  await goOffline(c.phone, judge);
  await judge.getByLabel("Diseño del robot (máx. 10)").fill("9");
  await judge.getByRole("button", { name: "Enviar mi hoja" }).click();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  await expect(mine).toContainText("«Las Llamas»: total 12,00 (por enviar)");
  await c.phone.setOffline(false);
  await expect(status(judge)).toContainText("Nada pendiente");
  await expect(mine).toContainText("«Las Llamas»: total 12,00");
  await expect(mine).not.toContainText("por enviar");
  await judge.evaluate(() => window.scrollTo(0, 0));
  await shoot(judge, "judge-score-sheet");

  // Offline again, one more sheet; meanwhile the admin takes the role back. When the phone sends
  // it, the refusal is shown with the server's message, not dropped.
  await goOffline(c.phone, judge);
  await judge.getByLabel("Equipo").selectOption({ label: "Los Zorros" });
  await judge.getByLabel("Diseño del robot (máx. 10)").fill("5");
  await judge.getByLabel("Programación (máx. 20)").fill("5");
  await judge.getByRole("button", { name: "Enviar mi hoja" }).click();
  await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
  const staff = await (await page.request.get(`/admin/eventos/${c.eventId}/personal`)).text();
  const judgeId = /name="userId" value="([0-9a-f-]{36})"/.exec(staff)?.[1];
  expect(judgeId).toBeTruthy();
  await poster(page)(`/admin/eventos/${c.eventId}`, {
    intent: "revokeRole",
    // The grant the page showed (decision 064).
    visto: /name="visto" value="([0-9a-f-]{36})"/.exec(staff)![1]!,
    userId: judgeId!,
    kind: "judge",
    categoryId: c.categoryId,
  });
  await c.phone.setOffline(false);
  await expect(status(judge)).toContainText("Nada pendiente");
  await expect(judge.locator(".judge-outcome")).toContainText(/No se anotó: Acceso denegado/);
  await expect(judge.getByRole("region", { name: "Anotaciones de este teléfono" })).toContainText(
    "Hoja de «Los Zorros»",
  );
  await c.phone.close();
});
