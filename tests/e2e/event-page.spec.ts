// An event's page shared the way people share it: the phone's share sheet where the browser has
// one, else the link copied, and said. (Issue 36 makes WhatsApp the first way.)
import {
  createMember,
  expect,
  expectNoAxeViolations,
  inLaPaz,
  publishEvent,
  shoot,
  signInAdmin,
  test,
  untilHydrated,
  workerBaseUrl,
} from "./fixtures";

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
  // WhatsApp's link needs no script.
  const whatsapp = page.getByRole("link", { name: /^WhatsApp/ });
  await expect(whatsapp).toBeVisible();
  expect(decodeURIComponent((await whatsapp.getAttribute("href"))!)).toContain(DEMO_EVENT);
  await context.close();
});

test("a member with a place sees the event's group and a reminder to send by WhatsApp; axe finds nothing", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const origin = new URL(workerBaseUrl()).origin;
  const name = `Club con grupo ${Math.random().toString(16).slice(2, 6)}`;
  const startsAt = new Date(Date.now() + 3 * 24 * 3_600_000);
  const starts = inLaPaz(startsAt);
  const eventId = await publishEvent(page, name, { startsAt });
  try {
    const saved = await page.request.post(`/admin/eventos/${eventId}`, {
      headers: { Origin: origin },
      form: {
        intent: "update",
        eventId,
        nombreEvento: name,
        ubicacionEvento: "Bolivia, La Paz",
        tipoEvento: "Presencial",
        fechaEvento: starts.fecha,
        horaEvento: starts.hora,
        imagenEnlace: `${origin}/demo/vision.svg`,
        ubicacionEspecifica: "Laboratorio",
        capacity: "",
        descripcion: "Con grupo de WhatsApp.",
        enlaceGrupo: "https://chat.whatsapp.com/AbCdEfGh123",
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);

    const context = await browser.newContext({ baseURL });
    const member = await context.newPage();
    await createMember(member, { nombreCompleto: "Ana Quispe" });
    await member.goto(`/detalles/${eventId}`);
    await expect(member.getByRole("link", { name: /Unirse al grupo/ })).toHaveCount(0);
    await member.getByRole("button", { name: "Participar" }).click();
    await member.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
    const group = member.getByRole("link", { name: /^Unirse al grupo de WhatsApp/ });
    await expect(group).toHaveAttribute("href", "https://chat.whatsapp.com/AbCdEfGh123");
    const reminder = member.getByRole("link", { name: /^Recordatorio por WhatsApp/ });
    expect(decodeURIComponent((await reminder.getAttribute("href"))!)).toMatch(
      /Recordatorio: Club con grupo[\s\S]*Mi código de registro: [0-9A-Z]{4}-[0-9A-Z]{4}/,
    );
    await expectNoAxeViolations(member);
    await shoot(member, "event-page-member-whatsapp");
    await member.goto("/profile");
    await expect(member.getByRole("link", { name: /^Recordatorio por WhatsApp/ })).toHaveCount(1);
    await expectNoAxeViolations(member);
    await context.close();
  } finally {
    const reply = await page.request.post("/admin", {
      form: { intent: "delete", eventId },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(reply.status()).toBe(302);
  }
});

test("a joined event shows one primary action (the pass in Mis entradas), sharing grouped, and 'Dejar de Participar' as a quiet link at the end; 'Organiza' is the profile's name", async ({
  page,
  browser,
  baseURL,
}) => {
  await signInAdmin(page);
  const name = `Taller con pase ${Date.now()}`;
  const eventId = await publishEvent(page, name, {
    startsAt: new Date(Date.now() + 3 * 86_400_000),
  });
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 } });
  const member = await context.newPage();
  await createMember(member, { nombreCompleto: "Rosa Quispe Mamani" });
  await member.goto(`/detalles/${eventId}`);
  await member.getByRole("button", { name: "Participar" }).click();
  await member.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await untilHydrated(member);
  const body = member.locator(".event-detail-body");
  // The publisher, by the name on their profile ('Admin E2E'), not the sign-in provider's.
  await expect(body.locator(".detail").filter({ hasText: "Organiza" }).locator("dd")).toHaveText(
    "Admin E2E",
  );

  const primary = body.locator(
    "a.button:not(.button-secondary):not(.button-ghost):not(.button-whatsapp), button.button:not(.button-secondary):not(.button-ghost)",
  );
  await expect(primary).toHaveCount(1);
  await expect(primary).toHaveText("Ver en Mis entradas");
  await expect(primary).toHaveAttribute("href", "/mis-entradas");
  await expect(body.getByRole("link", { name: "Añadir al calendario" })).toHaveClass(
    /button-secondary/,
  );

  const share = body.getByRole("group", { name: "Compartir el evento" });
  await expect(share.getByRole("link", { name: /^WhatsApp/ })).toBeVisible();
  await expect(share.getByRole("button", { name: "Compartir" })).toBeVisible();
  await expect(share.getByRole("link", { name: /^Recordatorio por WhatsApp/ })).toBeVisible();

  // Leaving: the last control of the event's box, drawn as a link, after the pass.
  const leave = body.getByRole("button", { name: "Dejar de Participar" });
  await expect(leave).toHaveClass("link-button");
  const last = await body.evaluate((el) => {
    const controls = [...el.querySelectorAll("a[href], button")].filter(
      (c) => !c.closest(".event-sessions"),
    );
    return controls.at(-1)?.textContent?.trim();
  });
  expect(last).toBe("Dejar de Participar");
  const pass = await body.getByRole("heading", { name: "Tu código de registro" }).boundingBox();
  expect((await leave.boundingBox())!.y).toBeGreaterThan(pass!.y);
  expect((await leave.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  expect(await member.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    360,
  );
  await expectNoAxeViolations(member);
  await shoot(member, "event-page-joined");

  await leave.click();
  await member.getByRole("alertdialog").getByRole("button", { name: "OK" }).click();
  await expect(body.getByRole("button", { name: "Participar" })).toHaveClass("button");
  await context.close();
});
