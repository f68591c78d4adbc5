// Mail in a real browser, on `npm start`'s configuration (no SMTP: the development mailbox): a
// member chooses their mail on /profile and joins an event; the admin writes to its participants;
// the mailbox shows the admin the mails; the unsubscribe link asks, then unsubscribes. axe on
// every page.
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  test,
  okAlert,
} from "./fixtures";

test("a member chooses their mail, an admin writes to participants, and the mailbox and unsubscribe link work", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // The message form sent empty is answered 400 with its errors, which Chromium reports.
  consoleErrors.allow(
    /status of 400 \(Bad Request\) \(http:\/\/localhost:\d+\/admin\/eventos\/[^/]+\/participantes\.data\)$/,
  );
  // ——— A member turns reminders off and joins an event ———
  const memberContext = await browser.newContext({ baseURL });
  const member = await memberContext.newPage();
  const { email } = await createMember(member, { nombreCompleto: "Irene Correo" });
  await member.goto("/profile");
  const mail = member.locator("section", { has: member.locator("#mail-title") });
  await expect(mail).toContainText(email);
  await mail.getByLabel("Recordatorios antes de cada evento").uncheck();
  await mail.getByRole("button", { name: "Guardar preferencias" }).click();
  await okAlert(member, "Preferencias de correo guardadas.");
  await expect(mail.getByLabel("Recordatorios antes de cada evento")).not.toBeChecked();
  await expect(mail.getByLabel("Mensajes de los organizadores de tus eventos")).toBeChecked();
  await expectNoAxeViolations(member);

  await member.goto("/eventos");
  // An ordinary event, not the demo's competition (first while it runs).
  await member
    .locator(".item-card-link")
    .filter({ hasNotText: "Torneo de robótica de ejemplo" })
    .first()
    .click();
  await member.getByRole("button", { name: "Participar", exact: true }).click();
  await okAlert(member, "¡Te has registrado para participar en este evento!");
  const eventId = new URL(member.url()).pathname.split("/").at(-1)!;

  // ——— The admin writes to the participants ———
  const landing = await signInOverHttp(page, { email: "admin-e2e@ayllu.test", name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  await page.goto(`/admin/eventos/${eventId}/participantes`);
  const form = page.locator("section", { has: page.locator("#mensaje-title") });
  await form.getByRole("button", { name: "Enviar mensaje" }).click();
  await expect(form.getByRole("textbox", { name: /^Asunto/ })).toBeFocused();
  await expect(form.getByText("Escribe el asunto del mensaje.")).toBeVisible();
  await form.getByRole("textbox", { name: /^Asunto/ }).fill("Traigan su laptop");
  await form
    .getByRole("textbox", { name: /^Mensaje/ })
    .fill("Hola a todos:\nel taller empieza puntual.");
  await form.getByRole("button", { name: "Enviar mensaje" }).click();
  await expect(page.getByText(/Mensaje en cola para \d+ persona/)).toBeVisible();
  await expectNoAxeViolations(page);

  // ——— The development mailbox (admins only) shows it ———
  await page.goto("/__dev/correo");
  const message = page.locator(".mail-item", { hasText: `Para ${email}` }).filter({
    hasText: "Traigan su laptop",
  });
  await expect(message).toBeVisible();
  await message.locator("summary").click();
  await expect(message.locator(".mail-text")).toContainText("el taller empieza puntual.");
  await expectNoAxeViolations(page);
  const text = await message.locator(".mail-text").innerText();
  const link = /https?:\/\/\S+\/correo\/baja\/\S+\/mensajes/.exec(text)![0];

  // ——— The unsubscribe link asks, then unsubscribes ———
  const visitorContext = await browser.newContext({ baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(new URL(link).pathname);
  await expect(visitor.getByRole("heading", { level: 1, name: "Darse de baja" })).toBeVisible();
  await expectNoAxeViolations(visitor);
  await visitor.getByRole("button", { name: "Darme de baja" }).click();
  await expect(
    visitor.getByRole("heading", { level: 1, name: "Listo, te diste de baja" }),
  ).toBeVisible();
  await expect(
    visitor.getByText("Ya no te enviaremos mensajes de los organizadores de tus eventos."),
  ).toBeVisible();
  await expectNoAxeViolations(visitor);
  await member.goto("/profile");
  await expect(member.getByLabel("Mensajes de los organizadores de tus eventos")).not.toBeChecked();

  await visitorContext.close();
  await memberContext.close();
});
