// Lighthouse (mobile profile) on the production build, with Debian's Chromium:
//   npm run lighthouse            (or: node scripts/lighthouse.mjs /ruta /recursos/*)
// Builds the site if needed, starts it on a free port with a temporary DATA_DIR and the demo
// content, measures /, /events, /clase1, /eventos, /notas, /recursos, /proyectos and the first
// event, note, project and resource linked from their lists, and prints the four scores
// with LCP, CLS and total blocking time. Nothing is fetched from the internet.
// LIGHTHOUSE_REPORT_DIR=dir also writes each page's full report (JSON) there. Each page is
// measured LIGHTHOUSE_RUNS times (3 unless set; a busy machine makes single runs noisy) and the
// table gives the medians: the report kept is the run with the median performance score, the
// total blocking time is the median of the runs. In the same run each page is also measured
// without its script files (blocked), so that the scripts' cost shows apart from the machine's
// speed: "TBT sin scripts". The budget (decision 049) is a median TBT of at most 200 ms on every
// page; a page over it is marked and the script exits with 1.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const root = path.resolve(import.meta.dirname, "..");
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const PAGE_TIMEOUT_MS = 120_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`el servidor terminó (código ${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`el servidor no respondió en ${url}`);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-lighthouse-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED_DEMO: "1" };

const build = spawnSync(process.execPath, [path.join(root, "scripts", "ensure-build.mjs")], {
  cwd: root,
  env,
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, [path.join(root, "server.js")], {
  cwd: root,
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
let chrome;
const cleanUp = async () => {
  await chrome?.kill();
  if (server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
};

const rows = [];
const TBT_BUDGET_MS = 200;

function median(values) {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
const notes = [];
try {
  await waitFor(`${origin}/healthz`, server);

  // One item of each kind: the first linked from its list. As an argument, "/recursos/*" (or
  // /notas/*, /proyectos/*, /detalles/*) names that item.
  const ITEMS = {
    "/detalles/*": ["/", /href="(\/detalles\/[0-9a-f-]{36})"/],
    "/notas/*": ["/notas", /href="(\/notas\/[0-9a-f-]{36})"/],
    "/proyectos/*": ["/proyectos", /href="(\/proyectos\/[0-9a-f-]{36})"/],
    "/recursos/*": ["/recursos", /href="(\/recursos\/[0-9a-f-]{36})"/],
  };
  const asked = process.argv.slice(2);
  const wanted =
    asked.length > 0
      ? asked
      : [
          "/",
          "/events",
          "/clase1",
          "/eventos",
          "/notas",
          "/recursos",
          "/proyectos",
          ...Object.keys(ITEMS),
        ];
  const paths = [];
  for (const wish of wanted) {
    if (!ITEMS[wish]) {
      paths.push(wish);
      continue;
    }
    const [list, pattern] = ITEMS[wish];
    const item = (await (await fetch(`${origin}${list}`)).text()).match(pattern)?.[1];
    if (!item) notes.push(`No item linked from ${list}: not measured.`);
    else if ((await fetch(`${origin}${item}`)).status !== 200)
      notes.push(`${item} does not answer 200: not measured.`);
    else paths.push(item);
  }

  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });

  const runsPerPage = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
  const measure = async (url, pagePath, withoutScripts = false) => {
    const run = lighthouse(
      url,
      {
        port: chrome.port,
        blockedUrlPatterns: withoutScripts ? ["*.js"] : [],
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
        disableFullPageScreenshot: true,
        maxWaitForLoad: 45_000,
      },
      undefined,
    );
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`Lighthouse tardó más de ${PAGE_TIMEOUT_MS / 1000} s en ${pagePath}`)),
        PAGE_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([run, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  for (const pagePath of paths) {
    const url = `${origin}${pagePath}`;
    const results = [];
    const bare = [];
    // Alternated, so that a slower minute of the machine weighs on both alike.
    for (let i = 0; i < runsPerPage; i++) {
      results.push(await measure(url, pagePath));
      bare.push(await measure(url, pagePath, true));
    }
    const tbtOf = (result) => result.lhr.audits["total-blocking-time"]?.numericValue ?? NaN;
    const medianTbt = median(results.map(tbtOf));
    const medianBareTbt = median(bare.map(tbtOf));
    results.sort(
      (a, b) =>
        (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0),
    );
    const result = results[Math.floor((results.length - 1) / 2)];
    const { categories, audits, runtimeError } = result.lhr;
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      fs.mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
      const file = path.join(
        process.env.LIGHTHOUSE_REPORT_DIR,
        `${pagePath.replace(/\W+/g, "_").replace(/^_|_$/g, "") || "home"}.json`,
      );
      fs.writeFileSync(file, result.report);
    }
    if (runtimeError) notes.push(`${pagePath}: ${runtimeError.code} ${runtimeError.message}`);
    const score = (id) =>
      categories[id]?.score == null ? "—" : String(Math.round(categories[id].score * 100));
    rows.push({
      path: pagePath,
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      lcp: audits["largest-contentful-paint"]?.displayValue ?? "—",
      cls: audits["cumulative-layout-shift"]?.displayValue ?? "—",
      tbt: Number.isNaN(medianTbt) ? "—" : `${Math.round(medianTbt)} ms`,
      tbtWithoutScripts: Number.isNaN(medianBareTbt) ? "—" : `${Math.round(medianBareTbt)} ms`,
      overBudget: !(medianTbt <= TBT_BUDGET_MS),
    });
    // Say what kept a category from 100, so the table is actionable.
    for (const [id, category] of Object.entries(categories)) {
      if (category.score === 1) continue;
      const failing = category.auditRefs
        .filter(
          (ref) => ref.weight > 0 && audits[ref.id]?.score !== null && audits[ref.id]?.score < 0.9,
        )
        .map((ref) => `${ref.id} (${audits[ref.id].displayValue ?? audits[ref.id].score})`);
      if (failing.length) notes.push(`${pagePath} ${id}: ${failing.join(", ")}`);
    }
  }
} finally {
  await cleanUp();
}

const header = [
  "Página",
  "Performance",
  "Accessibility",
  "Best practices",
  "SEO",
  "LCP",
  "CLS",
  "TBT (mediana)",
  "TBT sin scripts",
];
console.log(
  `\nLighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, perfil móvil (simulado), ${new Date().toISOString().slice(0, 10)}, mediana de ${Number(process.env.LIGHTHOUSE_RUNS ?? 3)} corridas\n`,
);
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const row of rows) {
  console.log(
    `| \`${row.path.replace(/[0-9a-f-]{36}/, "{id}")}\` | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.lcp} | ${row.cls} | ${row.tbt}${row.overBudget ? " ✗" : ""} | ${row.tbtWithoutScripts} |`,
  );
}
for (const note of notes) console.log(`\n- ${note}`);
const over = rows.filter((row) => row.overBudget);
if (over.length > 0) {
  console.log(
    `\n✗ TBT por encima de ${TBT_BUDGET_MS} ms: ${over.map((row) => row.path).join(", ")}`,
  );
  process.exitCode = 1;
}
