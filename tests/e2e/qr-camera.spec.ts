// QR scanning with a camera, in a browser without BarcodeDetector (Debian's Chromium): the site's
// WebAssembly decoder reads real passes from a fake camera. Two members join an event; their
// passes, as the event page shows them, are photographed and made into a video (ffmpeg, .y4m)
// that Chromium plays as its camera (--use-file-for-fake-video-capture). The admin starts the
// camera on the check-in page and both are checked in. Nothing leaves the site, the decoder is
// only loaded on the check-in page, and axe finds nothing there with the camera on.
//
// Figures (printed, never asserted; `npm run bench:check-in` runs this file for them): the bytes
// of script and WebAssembly the check-in page fetched, and the time from the first frame showing
// a pass to the confirmation on the page.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import {
  completeProfileOverHttp,
  createMember,
  expect,
  expectNoAxeViolations,
  memberData,
  signInOverHttp,
  publishEvent,
  test,
  workerBaseUrl,
} from "./fixtures";

const ADMIN = "admin-e2e@ayllu.test";
/** Where to save screenshots of the page at 360 and 1280 px, when set. */
const SHOTS_DIR = process.env.QR_SHOTS_DIR;

/** A member joins the event; their pass, as the event page shows it, is saved as a PNG. */
async function passPhoto(context: BrowserContext, eventId: string, name: string, file: string) {
  const page = await context.newPage();
  await createMember(page, { nombreCompleto: name });
  await page.request.post(`/detalles/${eventId}`, {
    headers: { Origin: new URL(workerBaseUrl()).origin },
    form: { intent: "join" },
  });
  await page.goto(`/detalles/${eventId}`);
  const pass = page.locator(".checkin-pass");
  await expect(pass.getByRole("img", { name: /^Código QR de registro para / })).toBeVisible();
  await pass.screenshot({ path: file });
  await page.close();
}

/**
 * A camera's video (.y4m, which Chromium's fake camera plays in a loop): a second of an empty
 * dark scene, then each pass for three seconds with a second of dark between them.
 */
function cameraVideo(passes: string[], file: string) {
  const dark = "color=c=0x1c1c24:s=640x480:r=10:d=1";
  const inputs: string[] = [];
  const chains: string[] = [];
  const parts: string[] = [];
  passes.forEach((pass, index) => {
    inputs.push("-f", "lavfi", "-i", dark, "-loop", "1", "-framerate", "10", "-t", "3", "-i", pass);
    chains.push(`[${index * 2}:v]setsar=1,format=yuv420p[d${index}]`);
    chains.push(
      `[${index * 2 + 1}:v]scale=-2:360,pad=640:480:(ow-iw)/2:(oh-ih)/2:color=0x1c1c24,` +
        `setsar=1,format=yuv420p[p${index}]`,
    );
    parts.push(`[d${index}][p${index}]`);
  });
  const filter = `${chains.join(";")};${parts.join("")}concat=n=${passes.length * 2}:v=1:a=0[v]`;
  execFileSync(
    "ffmpeg",
    ["-y", "-loglevel", "error", ...inputs, "-filter_complex", filter, "-map", "[v]", file],
    { stdio: "inherit" },
  );
}

function cameraBrowser(video: string): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
}

test("the camera reads real passes with the site's own decoder and checks both people in", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-camara-"));
  try {
    const landing = await signInOverHttp(page, { email: ADMIN, name: "Admin E2E" });
    if (landing === "/aditionaldata")
      await completeProfileOverHttp(page, memberData({ nombreCompleto: "Admin E2E" }));
    const name = `Feria de ciencia ${Date.now()}`;
    const eventId = await publishEvent(page, name, {
      ubicacion: "Bolivia, Cochabamba",
      descripcion: "Registro con la cámara.",
    });

    const members = await browser.newContext({ baseURL, reducedMotion: "reduce" });
    const passes = [path.join(folder, "ana.png"), path.join(folder, "beto.png")];
    await passPhoto(members, eventId, "Ana Quispe", passes[0]!);
    await members.clearCookies();
    await passPhoto(members, eventId, "Beto Mamani", passes[1]!);
    await members.close();
    const video = path.join(folder, "camara.y4m");
    cameraVideo(passes, video);

    // The admin's session, on a phone whose camera films the passes.
    const phone = await cameraBrowser(video);
    try {
      const context = await phone.newContext({
        baseURL,
        storageState: await page.context().storageState(),
        viewport: { width: 360, height: 740 },
        locale: "es-BO",
        timezoneId: "America/La_Paz",
        reducedMotion: "reduce",
      });
      // Any other page: no decoder.
      const elsewhere = await context.newPage();
      const elsewhereFetched: string[] = [];
      elsewhere.on("request", (request) => elsewhereFetched.push(request.url()));
      await elsewhere.goto(`/admin/eventos/${eventId}/participantes`);
      await expect(
        elsewhere.getByRole("heading", { level: 1, name: /^Participantes: / }),
      ).toBeVisible();
      expect(elsewhereFetched.filter((url) => /qr-decoder|qr-worker|\.wasm$/.test(url))).toEqual(
        [],
      );
      await elsewhere.close();

      const door = await context.newPage();
      // What the page asks the phone to vibrate, passed on to the browser.
      await door.addInitScript(() => {
        const felt: unknown[] = [];
        (window as unknown as { felt: unknown[] }).felt = felt;
        const vibrate = navigator.vibrate.bind(navigator) as (pattern: number[]) => boolean;
        navigator.vibrate = (pattern: VibratePattern | Iterable<number>) => {
          const steps = typeof pattern === "number" ? [pattern] : [...pattern];
          felt.push(steps);
          return vibrate(steps);
        };
      });
      const problems: string[] = [];
      door.on("console", (m) => {
        // The wrong code below is answered 404 by the data route, and the browser says so.
        const refusedCode =
          /status of 404/.test(m.text()) && /\/registro\/datos$/.test(m.location().url);
        if (m.type() === "error" && !refusedCode) problems.push(m.text());
      });
      door.on("pageerror", (error) => problems.push(error.message));
      // Everything the page, its decoder's worker and its service worker ask for.
      const fetched = new Set<string>();
      context.on("request", (request) => fetched.add(request.url()));

      await door.goto(`/admin/eventos/${eventId}/registro`);
      await expect(door.getByRole("button", { name: /^Marcar presente a / }).first()).toBeVisible();
      // What this test is about: the browser has no detector of its own.
      expect(await door.evaluate(() => "BarcodeDetector" in window)).toBe(false);
      const scan = door.getByRole("button", { name: "Escanear con la cámara" });
      await expect(scan).toBeEnabled();
      await expect
        .poll(() => [...fetched].some((url) => /\/assets\/zxing_reader-[\w-]+\.wasm$/.test(url)))
        .toBe(true);

      // On a 360 × 740 screen the field and 'Registrar' are in view without scrolling.
      for (const control of [
        door.getByLabel("Código de la persona"),
        door.getByRole("button", { name: "Registrar", exact: true }),
      ]) {
        const box = (await control.boundingBox())!;
        expect(box.y + box.height, "visible sin desplazarse").toBeLessThanOrEqual(740);
      }

      // The time from the first frame that shows a pass (a bright one: the scene is dark) to the
      // name on the page, measured in the page.
      await door.evaluate(() => {
        const clock = window as unknown as { passShownAt: number[]; confirmedAt: number[] };
        clock.passShownAt = [];
        clock.confirmedAt = [];
        const canvas = document.createElement("canvas");
        canvas.width = 32;
        canvas.height = 24;
        const pixels = canvas.getContext("2d", { willReadFrequently: true })!;
        const video = document.querySelector("video")!;
        let bright = false;
        const look = () => {
          pixels.drawImage(video, 0, 0, 32, 24);
          const { data } = pixels.getImageData(0, 0, 32, 24);
          let sum = 0;
          for (let i = 0; i < data.length; i += 4) sum += data[i]! + data[i + 1]! + data[i + 2]!;
          const now = sum / (data.length / 4) / 3 > 70;
          if (now && !bright) clock.passShownAt.push(performance.now());
          bright = now;
          video.requestVideoFrameCallback(look);
        };
        video.requestVideoFrameCallback(look);
        // Each person's first 'Presente' (the looping video shows the passes again later).
        const confirmed = new Set<string>();
        new MutationObserver(() => {
          const name = document.getElementById("checkin-result-title")?.textContent ?? "";
          const verdict = document.querySelector(".admin-checkin-verdict")?.textContent ?? "";
          if (verdict.startsWith("Presente") && !confirmed.has(name)) {
            confirmed.add(name);
            clock.confirmedAt.push(performance.now());
          }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await scan.click();
      await expect(door.getByLabel("Imagen de la cámara")).toBeVisible();
      if (SHOTS_DIR) {
        await door.screenshot({ path: path.join(SHOTS_DIR, "camara-360.png") });
        await door.setViewportSize({ width: 1280, height: 800 });
        await door.screenshot({ path: path.join(SHOTS_DIR, "camara-1280.png") });
        await door.setViewportSize({ width: 360, height: 740 });
      }
      await expectNoAxeViolations(door);

      const status = door.locator(".admin-checkin-status");
      await expect(status).toContainText("2 de 2 presentes", { timeout: 30_000 });
      await expect(status).toContainText("Nada pendiente");
      // The video loops: a pass seen again says 'Ya había entrado' instead.
      await expect(door.locator(".admin-checkin-verdict")).toContainText(
        /^(Presente|Ya había entrado)/,
      );
      // With the camera on, the field, 'Registrar' and the confirmation are all in view.
      for (const shown of [
        door.getByLabel("Código de la persona"),
        door.getByRole("button", { name: "Registrar", exact: true }),
        door.locator(".admin-checkin-result"),
      ]) {
        const box = (await shown.boundingBox())!;
        expect(box.y + box.height, "visible sin desplazarse").toBeLessThanOrEqual(740);
      }
      if (SHOTS_DIR) {
        await door.screenshot({ path: path.join(SHOTS_DIR, "registrado-360.png") });
        await door.setViewportSize({ width: 1280, height: 800 });
        await door.screenshot({ path: path.join(SHOTS_DIR, "registrado-1280.png") });
        await door.setViewportSize({ width: 360, height: 740 });
      }
      await expectNoAxeViolations(door);

      // Felt as well as seen and read out.
      const region = door.locator('[aria-live="assertive"]');
      await expect(region).toContainText(/(Ana Quispe|Beto Mamani)(Presente|Ya había entrado)/);
      expect(
        await door.evaluate(() => (window as unknown as { felt: unknown[] }).felt),
      ).toContainEqual([80]);

      // A wrong code stays in the field, and the region reads the refusal out. The camera is
      // stopped first: the looping video would show the passes again ('Ya había entrado').
      await door.getByRole("button", { name: "Detener la cámara" }).click();
      await expect(door.getByRole("button", { name: "Escanear con la cámara" })).toBeVisible();
      await door.getByLabel("Código de la persona").fill("zzzz-zzzz");
      await door.getByRole("button", { name: "Registrar", exact: true }).click();
      await expect(door.locator("#checkin-code-error")).toBeVisible();
      await expect(door.getByLabel("Código de la persona")).toHaveValue("zzzz-zzzz");
      await expect(region).toContainText("No registrado: ");
      await expectNoAxeViolations(door);

      // The server has both.
      const list = await (
        await door.request.get(`/admin/eventos/${eventId}/registro/datos`)
      ).json();
      for (const person of list.participants as { nombre: string; checkedInAt: string | null }[])
        expect(person.checkedInAt, person.nombre).toBeTruthy();

      // Every byte came from the site itself.
      const origin = new URL(baseURL!).origin;
      expect([...fetched].filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(problems).toEqual([]);

      const clock = await door.evaluate(() => {
        const { passShownAt, confirmedAt } = window as unknown as {
          passShownAt: number[];
          confirmedAt: number[];
        };
        return { passShownAt, confirmedAt };
      });
      const times = clock.confirmedAt.map((confirmed) => {
        const shown = clock.passShownAt.filter((at) => at <= confirmed).at(-1);
        return shown === undefined ? NaN : Math.round(confirmed - shown);
      });
      // The built files the page used, compressed as the server sends them (gzip, level 6).
      const built = (pattern: RegExp) =>
        [...new Set([...fetched].map((url) => new URL(url).pathname))]
          .filter((file) => file.startsWith("/assets/") && pattern.test(file))
          .map((file) => fs.readFileSync(path.join("build/client", file)))
          .reduce(
            (sum, bytes) => ({
              raw: sum.raw + bytes.length,
              gzip: sum.gzip + gzipSync(bytes).length,
            }),
            { raw: 0, gzip: 0 },
          );
      const js = built(/\.js$/);
      const wasm = built(/\.wasm$/);
      const figures = [
        `JavaScript de la página (con el del lector): ${js.raw} B, ${js.gzip} B con gzip`,
        `WebAssembly del lector: ${wasm.raw} B, ${wasm.gzip} B con gzip`,
        `total con gzip: ${js.gzip + wasm.gzip} B`,
        `del pase delante de la cámara a la confirmación: ${times.join(" ms, ")} ms`,
      ];
      testInfo.annotations.push({ type: "cifras", description: figures.join("; ") });
      console.log(`[registro con cámara] ${figures.join("\n[registro con cámara] ")}`);
      await context.close();
    } finally {
      await phone.close();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
