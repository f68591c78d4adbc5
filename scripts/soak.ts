// npm run soak -- --minutes N: a bounded mixed load against `node server.js` started here, on a
// fresh embedded database (or on DATABASE_URL): visitors reading pages, members joining and
// leaving an event, an admin publishing events, and one admin's live stream open throughout.
// Prints errors, latency percentiles and the server's memory (RSS) at start, peak and end.
// `--photos N` first has N members send a 49-megapixel photo each, all at once, to
// POST /subidas?para=perfil, and prints the answers and each server process's peak RSS
// (docs/decisions/028-image-decoding-bound.md); with `--minutes 0` only that burst runs.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { createSession } from "../app/members/session.server";
import { openEmbedded, openPostgres, type Database } from "../app/db/client.server";
import { createEvent } from "~/events/event-commands.server";
import { saveProfile, signInWithIdentity } from "../app/members/user.server";
import { EventSchema } from "../app/events/schemas";
import { ProfileSchema } from "../app/members/schemas";

const ROOT = path.resolve(import.meta.dirname, "..");
const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const MINUTES = flag("minutes", 1);
const WORKERS = flag("workers", 8);
const PHOTOS = flag("photos", 0);
const MEMBERS = Math.max(40, PHOTOS);
const ADMIN_EMAIL = "soak-admin@example.com";
const TIMEZONE = "America/La_Paz";
const PUBLISH_EVERY_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function rssOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The process and its children (the workers on PostgreSQL). */
function processTree(pid: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
    return [pid, ...children.trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [pid];
  }
}

/**
 * N members each upload their own photo, all at once: a 7,000 × 7,000 PNG of one colour, about
 * 150 KB on disk and 49 million pixels (147 MB of RGB) once decoded. Prints the answers by status
 * and the peak RSS of every server process while they ran.
 */
async function photoBurst(base: string, pid: number, cookies: string[], n: number) {
  const photos = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      sharp({
        create: { width: 7000, height: 7000, channels: 3, background: { r: i, g: 90, b: 160 } },
      })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    ),
  );
  const pids = processTree(pid);
  const before = pids.map(rssOf);
  const peaks = [...before];
  const sample = () => pids.forEach((p, i) => (peaks[i] = Math.max(peaks[i]!, rssOf(p))));
  const timer = setInterval(sample, 50);
  const started = performance.now();
  const answers = await Promise.all(
    photos.map(async (photo, i) => {
      const form = new FormData();
      form.append("imagen", new Blob([new Uint8Array(photo)], { type: "image/png" }), "foto.png");
      const response = await fetch(`${base}/subidas?para=perfil`, {
        method: "POST",
        headers: { Cookie: cookies[i]!, Origin: base },
        body: form,
      });
      const body = await response.text();
      return response.ok ? "200" : `${response.status} ${body.slice(0, 140)}`;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // Whatever the server still does once it has answered (freeing, collecting) counts too.
  await sleep(2000);
  sample();
  clearInterval(timer);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  const kb = Math.round(photos.reduce((sum, p) => sum + p.length, 0) / n / 1024);
  console.log(
    `\nFotos: ${n} a la vez, PNG de 7000 × 7000 (${kb} KB cada una), ${seconds.toFixed(1)} s, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? "2"}, WEB_CONCURRENCY=${process.env.WEB_CONCURRENCY ?? "(por defecto)"}`,
  );
  const counts = answers.reduce<Record<string, number>>((acc, a) => {
    acc[a] = (acc[a] ?? 0) + 1;
    return acc;
  }, {});
  for (const [answer, count] of Object.entries(counts)) console.log(`  ${answer} ×${count}`);
  const who = (p: number) => (p === pid ? "servidor" : `trabajador ${p}`);
  console.log(
    `  RSS (antes → pico): ${pids.map((p, i) => `${who(p)} ${mb(before[i]!)} → ${mb(peaks[i]!)} MB`).join(", ")}`,
  );
}

async function seed(database: Database) {
  const db = database.db;
  const cookies: string[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const email = `soak-${i}@example.com`;
    const { user } = await signInWithIdentity(
      db,
      {
        issuer: "https://soak.example",
        subject: `soak-${i}`,
        email,
        emailVerified: true,
        name: `Miembro ${i}`,
        picture: null,
      },
      [],
    );
    await saveProfile(
      db,
      user.id,
      ProfileSchema.parse({
        nombreCompleto: `Miembro ${i}`,
        fechaNacimiento: "1990-05-17",
        pais: "Bolivia",
        ciudad: "La Paz",
        genero: "Otro",
        habilidades: "",
      }),
    );
    cookies.push((await createSession(db, user.id, { secure: false })).split(";")[0]!);
  }
  const { user: admin } = await signInWithIdentity(
    db,
    {
      issuer: "https://soak.example",
      subject: "soak-admin",
      email: ADMIN_EMAIL,
      emailVerified: true,
      name: "Admin",
      picture: null,
    },
    [ADMIN_EMAIL],
  );
  const adminUser = await saveProfile(
    db,
    admin.id,
    ProfileSchema.parse({
      nombreCompleto: "Admin Soak",
      fechaNacimiento: "1990-05-17",
      pais: "Bolivia",
      ciudad: "La Paz",
      genero: "Otro",
      habilidades: "",
    }),
  );
  const adminCookie = (await createSession(db, admin.id, { secure: false })).split(";")[0]!;
  const event = await createEvent(
    db,
    adminUser,
    EventSchema.parse({
      nombreEvento: "Evento de carga",
      ubicacionEvento: "Bolivia, La Paz",
      tipoEvento: "Presencial",
      enlacesVirtuales: [],
      fechaEvento: "2099-12-06",
      horaEvento: "19:00",
      imagenEnlace: "https://example.com/carga.png",
      ubicacionEspecifica: "",
      descripcion: "Un evento para la prueba de carga.",
    }),
    TIMEZONE,
  );
  return { cookies, adminCookie, eventId: event.id };
}

interface Sample {
  kind: string;
  ms: number;
  ok: boolean;
  detail?: string;
}

async function main() {
  const build = spawnSync(process.execPath, ["scripts/ensure-build.mjs"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("La construcción falló");

  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? null : fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-soak-"));
  const database = databaseUrl ? await openPostgres(databaseUrl) : await openEmbedded(dataDir!);
  const kind = databaseUrl ? "PostgreSQL" : "embebida (PGlite)";
  const seeded = await seed(database);
  await database.close();

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      SEED_DEMO: "0",
      ADMIN_EMAILS: ADMIN_EMAIL,
      LOGIN_RATE_LIMIT: "100000",
      // As the production command of docs/produccion.md starts it (decision 024).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      ...(dataDir ? { DATA_DIR: dataDir, DATABASE_URL: "" } : {}),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let serverErrors = "";
  server.stderr!.on("data", (chunk: Buffer) => (serverErrors += chunk.toString()));
  try {
    for (let waited = 0; ; waited += 200) {
      if (server.exitCode !== null) throw new Error(`El servidor terminó: ${serverErrors}`);
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (waited > 120_000) throw new Error("El servidor no respondió a tiempo");
      await sleep(200);
    }
    const pid = server.pid!;
    const samples: Sample[] = [];
    const timed = async (
      kind: string,
      run: () => Promise<Response>,
      expect: (s: number) => boolean,
    ) => {
      const start = performance.now();
      try {
        const response = await run();
        await response.arrayBuffer();
        const ok = expect(response.status);
        samples.push({
          kind,
          ms: performance.now() - start,
          ok,
          detail: ok ? undefined : String(response.status),
        });
      } catch (error) {
        samples.push({ kind, ms: performance.now() - start, ok: false, detail: String(error) });
      }
    };
    const post = (target: string, cookie: string, fields: Record<string, string>) =>
      fetch(base + target, {
        method: "POST",
        redirect: "manual",
        headers: {
          Cookie: cookie,
          Origin: base,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(fields),
      });
    const get = (target: string, cookie?: string) =>
      fetch(base + target, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });

    // Warm-up, then the starting memory.
    for (const target of ["/", "/eventos", `/detalles/${seeded.eventId}`, "/notas"]) {
      await (await get(target)).arrayBuffer();
    }
    if (PHOTOS > 0) await photoBurst(base, pid, seeded.cookies, PHOTOS);
    if (MINUTES <= 0) return;
    const rssStart = rssOf(pid);
    let rssPeak = rssStart;
    const memoryTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 500);
    // One reading a minute: a plateau and a leak look alike at start, peak and end, not here.
    const rssByMinute: number[] = [];
    const minuteTimer = setInterval(() => rssByMinute.push(rssOf(pid)), 60_000);

    // One admin's live stream, open for the whole run.
    const streamAbort = new AbortController();
    let streamBytes = 0;
    let streamStatus = 0;
    const streamDone = fetch(`${base}/projectsandnotes/stream`, {
      headers: { Cookie: seeded.adminCookie, Accept: "text/event-stream" },
      signal: streamAbort.signal,
    })
      .then(async (response) => {
        streamStatus = response.status;
        const reader = response.body!.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          streamBytes += value.length;
        }
      })
      .catch(() => {});

    const deadline = Date.now() + MINUTES * 60_000;
    const joined = new Set<number>();
    let published = 0;
    // One admin publishing at a person's pace, so that the load stays the same from start to end.
    let lastPublish = 0;
    const worker = async (w: number) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const roll = (i * 7 + w * 13) % 20;
        if (roll < 11) {
          const targets = ["/", "/eventos", `/detalles/${seeded.eventId}`, "/notas", "/proyectos"];
          const target = targets[(i + w) % targets.length]!;
          await timed(
            `GET visitante`,
            () => get(target),
            (s) => s === 200,
          );
        } else if (roll < 17) {
          const m = (i * 3 + w) % MEMBERS;
          const intent = joined.has(m) ? "leave" : "join";
          if (intent === "join") joined.add(m);
          else joined.delete(m);
          await timed(
            `POST participar/dejar`,
            () => post(`/detalles/${seeded.eventId}`, seeded.cookies[m]!, { intent }),
            (s) => s === 302,
          );
        } else if (roll < 19 || Date.now() - lastPublish < PUBLISH_EVERY_MS) {
          await timed(
            `GET /admin`,
            () => get("/admin", seeded.adminCookie),
            (s) => s === 200,
          );
        } else {
          lastPublish = Date.now();
          published++;
          await timed(
            `POST publicar evento`,
            () =>
              post("/admin", seeded.adminCookie, {
                intent: "publish",
                nombreEvento: `Evento de carga ${w}-${i}`,
                ubicacionEvento: "Bolivia, La Paz",
                tipoEvento: "Presencial",
                fechaEvento: "2099-01-01",
                horaEvento: "10:00",
                imagenEnlace: "https://example.com/carga.png",
                ubicacionEspecifica: "",
                descripcion: "Publicado durante la prueba de carga.",
              }),
            (s) => s === 302,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    streamAbort.abort();
    await streamDone;
    // Let the server settle (timers, garbage collection) before the last reading.
    await sleep(5000);
    clearInterval(memoryTimer);
    clearInterval(minuteTimer);
    const rssEnd = rssOf(pid);
    rssPeak = Math.max(rssPeak, rssEnd);

    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const pct = (values: number[], p: number) =>
      values[Math.min(values.length - 1, Math.floor(p * values.length))] ?? 0;
    console.log(
      `\nSoak: ${MINUTES} min, ${WORKERS} conexiones, base de datos ${kind}, ${samples.length} peticiones, ${published} eventos publicados`,
    );
    console.log(
      `Stream en vivo: estado ${streamStatus}, ${streamBytes} bytes recibidos (abierto toda la prueba)`,
    );
    const kinds = [...new Set(samples.map((s) => s.kind))];
    console.log(
      "| Petición | n | errores | p50 ms | p95 ms | p99 ms | máx ms |\n|---|--:|--:|--:|--:|--:|--:|",
    );
    for (const k of [...kinds, "todas"]) {
      const of = samples.filter((s) => k === "todas" || s.kind === k);
      const ms = of.map((s) => s.ms).sort((a, b) => a - b);
      console.log(
        `| ${k} | ${of.length} | ${of.filter((s) => !s.ok).length} | ${pct(ms, 0.5).toFixed(1)} | ${pct(ms, 0.95).toFixed(1)} | ${pct(ms, 0.99).toFixed(1)} | ${(ms.at(-1) ?? 0).toFixed(1)} |`,
      );
    }
    const failures = samples.filter((s) => !s.ok);
    for (const [detail, n] of Object.entries(
      failures.reduce<Record<string, number>>((acc, f) => {
        const key = `${f.kind}: ${f.detail}`;
        acc[key] = (acc[key] ?? 0) + 1;
        return acc;
      }, {}),
    )) {
      console.log(`  error ${detail} ×${n}`);
    }
    console.log(
      `Memoria del servidor (RSS): inicio ${mb(rssStart)}, pico ${mb(rssPeak)}, final ${mb(rssEnd)}`,
    );
    console.log(`RSS minuto a minuto: ${rssByMinute.map(mb).join(", ")}`);
    if (serverErrors.trim()) console.log(`Errores del servidor:\n${serverErrors.trim()}`);
    process.exitCode = failures.length > 0 || serverErrors.trim() ? 1 : 0;
  } finally {
    if (server.exitCode === null) {
      const gone = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await gone;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
