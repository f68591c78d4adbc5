// Screenshots of pages at phone and desktop widths, with Debian's Chromium:
//   node scripts/screenshot.mjs http://localhost:3000/ http://localhost:3000/login
// Writes screenshots/<path>-<width>.png. COOKIE="name=value" sends a session cookie.
import fs from "node:fs";
import { chromium } from "playwright-core";

const urls = process.argv.slice(2);
const widths = (process.env.WIDTHS ?? "360,1280").split(",").map(Number);
fs.mkdirSync("screenshots", { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
for (const url of urls) {
  for (const width of widths) {
    const context = await browser.newContext({
      viewport: { width, height: width < 600 ? 780 : 900 },
      locale: "es-BO",
    });
    if (process.env.COOKIE) {
      const [name, ...rest] = process.env.COOKIE.split("=");
      await context.addCookies([{ name, value: rest.join("="), url }]);
    }
    const page = await context.newPage();
    page.on("console", (m) => m.type() === "error" && console.error(`[console] ${m.text()}`));
    await page.goto(url, { waitUntil: "networkidle" });
    const name = new URL(url).pathname.replace(/\W+/g, "_").replace(/^_|_$/g, "") || "home";
    const file = `screenshots/${name}-${width}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL === "1" });
    console.log(file);
    await context.close();
  }
}
await browser.close();
