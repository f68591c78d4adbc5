// A certificate of attendance in a real browser: an admin marks a member present, the event ends
// (its date moved back), the member downloads the PDF from /profile, and the code's public page
// confirms it. axe on both pages.
import fs from "node:fs";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  laPaz,
  memberData,
  signInOverHttp,
  test,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";

test("a member marked present downloads their certificate from the profile, and its code's page confirms it", async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Taller con certificado ${Date.now()}`;
  const origin = new URL(baseURL!).origin;
  const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
  if (landing === "/aditionaldata")
    await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
  const fields = {
    nombreEvento: name,
    ubicacionEvento: "Bolivia, Sucre",
    tipoEvento: "Presencial",
    // Within the hour, so that its door is open (decision 075) when the admin marks the member.
    fechaEvento: laPaz(60).fecha,
    horaEvento: laPaz(60).hora,
    imagenEnlace: `${origin}/demo/vision.svg`,
    ubicacionEspecifica: "Casa de la Libertad",
    descripcion: "Con certificado.",
    capacity: "",
  };
  const post = (path: string, form: Record<string, string>) =>
    page.request.post(path, { form, headers: { Origin: origin } });
  expect((await post("/admin", { intent: "publish", ...fields })).ok()).toBe(true);
  await page.goto(`/admin?buscarEvento=${encodeURIComponent(name)}`);
  const participants = await page
    // In the row's menu, closed: read, not clicked.
    .getByRole("link", { name: `Participantes de ${name}`, includeHidden: true })
    .getAttribute("href");
  const eventId = participants!.split("/")[3]!;

  const memberContext = await browser.newContext({ baseURL });
  const member = await memberContext.newPage();
  await createMember(member, { nombreCompleto: "Ñandú Pérez Ávila" });
  const joined = await member.request.post(`/detalles/${eventId}`, {
    form: { intent: "join" },
    headers: { Origin: origin },
  });
  expect(joined.ok()).toBe(true);

  // At the door; then the event is over.
  await page.goto(participants!);
  await page.getByRole("button", { name: "Marcar presente a Ñandú Pérez Ávila" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Asistencia registrada.");
  expect(
    (
      await post("/admin", { intent: "update", eventId, ...fields, fechaEvento: "2025-05-20" })
    ).ok(),
  ).toBe(true);

  await member.goto("/profile");
  const link = member.getByRole("link", { name: `Descargar certificado de ${name}` });
  await expectNoAxeViolations(member);
  const [download] = await Promise.all([member.waitForEvent("download"), link.click()]);
  const code = /^certificado-([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})\.pdf$/.exec(
    download.suggestedFilename(),
  )?.[1];
  expect(code).toBeDefined();
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");

  await member.goto(`/certificados/${code}`);
  await expect(member).toHaveTitle("Certificado de asistencia de Ñandú Pérez Ávila — Ayllu");
  await expect(member.getByRole("heading", { level: 1 })).toHaveText("Ñandú Pérez Ávila");
  await expect(member.getByRole("link", { name })).toHaveAttribute("href", `/detalles/${eventId}`);
  // An event that starts late in the evening ends on the next day: 'Del 20 al 21 de mayo'.
  await expect(member.getByText(/20 (al 21 )?de mayo de 2025/)).toBeVisible();
  await expectNoAxeViolations(member);
  await memberContext.close();
});
