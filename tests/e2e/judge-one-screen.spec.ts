// The judge's loop fits one phone screen (decision 059): at 360 × 640, with nothing scrolled,
// the judge chooses a team or a match, enters a result and sends it, sees what happened, and
// the form waits for the next entry at the same place — online, and again without a connection,
// where the screen says in words what waits on the phone. One row of FORMATS per format: a new
// format adds its row. axe on every screen; screenshots go to SHOTS_DIR when it is set.
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, okAlert, shoot, signInAdmin, test } from "./fixtures";
import {
  competition,
  dismissFlash,
  openScreen,
  removeCompetitions,
  status,
  type Format,
} from "./judge-setup";
import fs from "node:fs";
import path from "node:path";

test.afterEach(async ({ page }) => removeCompetitions(page));

const PHONE = { width: 360, height: 640 };

type Row = {
  format: Format;
  category: string;
  teams: string[];
  /** What an organiser prepares before judges can enter anything, on the organisers' screen. */
  prepare?: (admin: Page) => Promise<void>;
  /** The control that chooses the team or the match. */
  picker: (judge: Page) => Locator;
  /** Where the result is entered (for a bracket, the tap on the winner is the entry). */
  field: (judge: Page) => Locator;
  /** What sends the entry. */
  submit: (judge: Page) => Locator;
  /** Chooses and enters the `n`-th entry (0, 1…), without sending it. */
  enter: (judge: Page, n: number) => Promise<void>;
};

const FORMATS: Row[] = [
  {
    format: "tiempo",
    category: "Velocistas",
    teams: ["Los Cóndores", "Los Pumas"],
    picker: (judge) => judge.getByLabel("Equipo"),
    field: (judge) => judge.getByLabel(/^Tiempo/),
    submit: (judge) => judge.getByRole("button", { name: "Anotar vuelta" }),
    enter: async (judge, n) => {
      if (n === 0) await judge.getByLabel("Equipo").selectOption({ label: "Los Cóndores" });
      await judge.getByLabel(/^Tiempo/).fill(n === 0 ? "12,5" : "11,75");
    },
  },
  {
    format: "llaves",
    category: "Sumo ligero",
    teams: ["Alfa", "Beta", "Gama", "Delta"],
    prepare: async (admin) => {
      await admin.getByRole("button", { name: "Sortear llaves" }).click();
      await okAlert(admin, "Llaves sorteadas");
    },
    // The matches to play now are the picker: the first is the one at hand.
    picker: (judge) => judge.locator(".judge-match").first().getByRole("heading"),
    field: (judge) =>
      judge
        .locator(".judge-match")
        .first()
        .getByRole("button", { name: /^Gana «/ })
        .first(),
    submit: (judge) =>
      judge
        .locator(".judge-match")
        .first()
        .getByRole("button", { name: /^Gana «/ })
        .last(),
    enter: async () => {},
  },
  {
    format: "puntaje",
    category: "Reto creativo",
    teams: ["Las Llamas", "Los Zorros"],
    prepare: async (admin) => {
      const rules = admin.getByRole("region", { name: "Cómo se juzga" });
      const criteria = [
        ["Diseño del robot", "10"],
        ["Programación", "20"],
        ["Presentación", "10"],
      ];
      for (const [i, [name, max]] of criteria.entries()) {
        await rules.getByLabel(`Criterio ${i + 1}`, { exact: true }).fill(name!);
        await rules.getByLabel(`Máximo del criterio ${i + 1}`).fill(max!);
      }
      await rules.getByRole("button", { name: "Guardar cómo se juzga" }).click();
      await okAlert(admin, "Forma de juzgar guardada.");
    },
    picker: (judge) => judge.getByLabel("Equipo"),
    field: (judge) => judge.getByLabel(/^Diseño del robot/),
    submit: (judge) => judge.getByRole("button", { name: "Enviar mi hoja" }),
    enter: async (judge, n) => {
      await judge
        .getByLabel("Equipo")
        .selectOption({ label: n === 0 ? "Las Llamas" : "Los Zorros" });
      await judge.getByLabel(/^Diseño del robot/).fill("8");
      await judge.getByLabel(/^Programación/).fill("15,5");
      await judge.getByLabel(/^Presentación/).fill("7");
    },
  },
];

/** Asserts that `part` is wholly on the screen, below the fixed header, with nothing scrolled. */
async function onScreen(judge: Page, part: Locator, what: string) {
  const header = await judge.locator(".site-header").boundingBox();
  const box = await part.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.y, `${what}: under the header`).toBeGreaterThanOrEqual(header!.y + header!.height);
  expect(box!.y + box!.height, `${what}: above the fold`).toBeLessThanOrEqual(PHONE.height);
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(PHONE.width);
}

async function scrolled(judge: Page) {
  return judge.evaluate(() => window.scrollY);
}

async function shootPhone(judge: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await judge.screenshot({ path: path.join(dir, `${name}-360x640.png`) });
}

for (const row of FORMATS) {
  test(`${row.format}: the judge's whole loop fits a 360 × 640 phone, online and offline`, async ({
    page,
    browser,
    baseURL,
    consoleErrors,
  }) => {
    consoleErrors.allow(/net::ERR_INTERNET_DISCONNECTED/);
    await signInAdmin(page);
    const c = await competition(page, browser, baseURL, row.format, row.category, row.teams, PHONE);
    if (row.prepare) {
      await page.goto(c.path);
      await dismissFlash(page);
      await page.getByRole("link", { name: "Organizar resultados" }).click();
      await row.prepare(page);
    }
    const judge = c.judge;
    await openScreen(judge, c.path);
    expect(await scrolled(judge)).toBe(0);
    await shootPhone(judge, `judge-${row.format}-open`);

    for (const n of [0, 1]) {
      if (n === 1) {
        await c.phone.setOffline(true);
        await expect(status(judge)).toContainText("Sin conexión");
      }
      await onScreen(judge, row.picker(judge), "the picker");
      await onScreen(judge, row.field(judge), "the entry");
      await onScreen(judge, row.submit(judge), "the submit");
      await row.enter(judge, n);
      const before = await scrolled(judge);
      await row.submit(judge).click();
      const outcome = judge.locator(".judge-outcome");
      await expect(outcome).toContainText(n === 0 ? "Anotado." : "Por enviar");
      await onScreen(judge, outcome, "what happened");
      // Ready for the next entry at the same place.
      expect(await scrolled(judge)).toBe(before);
      await onScreen(judge, row.submit(judge), "the submit, after sending");
      if (n === 0) await expect(status(judge)).toContainText("Nada pendiente");
      else
        await expect(status(judge)).toContainText("1 anotación espera conexión; se enviará sola.");
      await onScreen(judge, status(judge), "the connection and the queue");
      await expectNoAxeViolations(judge);
      await shootPhone(judge, `judge-${row.format}-${n === 0 ? "sent" : "queued"}`);
    }
    await c.phone.setOffline(false);
    await expect(status(judge)).toContainText("Nada pendiente");
    // The rules (the tie rule, how many runs count) are one tap away, folded.
    const rules = judge.locator("details.judge-rules");
    await expect(rules).not.toHaveAttribute("open");
    await onScreen(judge, rules.locator("summary"), "the rules");
    await rules.locator("summary").click();
    await expect(rules).toContainText("Desempate");
    await expectNoAxeViolations(judge);
    await shoot(judge, `judge-${row.format}-rules-open`);
    await c.phone.close();
  });
}
