// The installer's checks (./ayllu, sourced), each against the real thing it looks at: a port this
// test occupies (on 127.0.0.1, and on another address only), a small tmpfs mounted for the disk
// check, a domain that does not reach this machine and one no DNS knows, a PATH without curl, a
// short /proc/meminfo. Run by `npm run test:deploy` (as root: the mount).
//   node --test tests/deploy/installer-checks.test.mjs
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";

const ayllu = path.resolve(import.meta.dirname, "../../ayllu");

/** Runs `script` in bash with ./ayllu's functions defined; its status and output. */
function check(script, env = {}) {
  const result = spawnSync("bash", ["-c", `. "${ayllu}"; ${script}`], {
    encoding: "utf8",
    env: { ...process.env, LANG: "es_BO.UTF-8", ...env },
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let occupied;
let occupiedPort;
before(async () => {
  occupied = net.createServer();
  await new Promise((resolve) => occupied.listen(0, "127.0.0.1", resolve));
  occupiedPort = occupied.address().port;
});
after(() => occupied.close());

test("a port that something listens on is refused, naming it; free ports pass", async () => {
  const taken = check(`check_ports ${occupiedPort}`);
  assert.equal(taken.status, 1);
  assert.match(taken.output, new RegExp(`El puerto ${occupiedPort} ya está en uso`));
  const free = check(`check_ports ${await freePort()}`);
  assert.equal(free.status, 0, free.output);
});

/** An address of this machine other than 127.0.0.1 (127.0.0.2, which Linux routes to lo, if none). */
function otherAddress() {
  const addresses = Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a.family === "IPv4" && a.address !== "127.0.0.1");
  return (addresses.find((a) => !a.internal) ?? { address: "127.0.0.2" }).address;
}

/** A folder for PATH holding links to only these tools (those found here). */
function toolsDir(tools) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-herramientas-"));
  for (const tool of tools) {
    const found = spawnSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" });
    if (found.status === 0) fs.symlinkSync(found.stdout.trim(), path.join(dir, tool));
  }
  return dir;
}

// What sourcing ./ayllu and its port checks use, without the tools under test.
const baseTools = [
  "bash",
  "dirname",
  "basename",
  "tr",
  "sed",
  "grep",
  "awk",
  "sort",
  "head",
  "timeout",
];

test("a port held only on another address than 127.0.0.1 is refused, naming where and who", async () => {
  const address = otherAddress();
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, address, resolve));
  const { port } = server.address();
  try {
    // Nothing answers on 127.0.0.1: a check that only tried it would let this port pass.
    const loopback = spawnSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`]);
    assert.notEqual(loopback.status, 0);
    const taken = check(`check_ports ${port}`);
    assert.equal(taken.status, 1, taken.output);
    assert.match(
      taken.output,
      new RegExp(`El puerto ${port} ya está en uso \\(otro servidor web\\) en ${address}:${port}`),
    );
    // As root, ss names the process that holds it: this one.
    if (process.getuid?.() === 0)
      assert.match(taken.output, new RegExp(`${address}:${port} \\([^,]+, pid ${process.pid}\\)`));
    // Without ss, the fallback tries 127.0.0.1 and each address of `hostname -I`.
    if (address !== "127.0.0.2") {
      const dir = toolsDir([...baseTools, "hostname"]);
      try {
        const withoutSs = check(`check_ports ${port}`, { PATH: dir });
        assert.equal(withoutSs.status, 1, withoutSs.output);
        assert.match(
          withoutSs.output,
          new RegExp(`El puerto ${port} ya está en uso .* en ${address}:${port}`),
        );
        assert.equal(check(`check_ports ${await freePort()}`, { PATH: dir }).status, 0);
      } finally {
        fs.rmSync(dir, { recursive: true });
      }
    }
  } finally {
    server.close();
  }
});

test("a missing curl or python3 is named, with its Debian package and the command, not as DNS", () => {
  const withoutCurl = toolsDir([...baseTools, "python3"]);
  const withoutBoth = toolsDir(baseTools);
  try {
    const curl = check("check_tools", { PATH: withoutCurl });
    assert.equal(curl.status, 1);
    assert.match(curl.output, /Falta curl \(paquete de Debian curl\)/);
    assert.match(curl.output, /Instálalo con: apt-get install -y curl$/m);
    assert.doesNotMatch(curl.output, /python3/);
    // The domain check says the same, before any word about DNS.
    const domain = check("check_domain eventos.prueba.test", {
      PATH: withoutCurl,
      AYLLU_RESOLVE: "127.0.0.1",
    });
    assert.equal(domain.status, 1);
    assert.match(domain.output, /Falta curl/);
    assert.doesNotMatch(domain.output, /DNS|no llega/);
    const both = check("check_tools", { PATH: withoutBoth, LANG: "en_US.UTF-8" });
    assert.equal(both.status, 1);
    assert.match(both.output, /curl is missing \(Debian package curl\)/);
    assert.match(both.output, /python3 is missing \(Debian package python3\)/);
    assert.match(both.output, /Install them with: apt-get install -y curl python3$/m);
    assert.equal(check("check_tools").status, 0);
  } finally {
    fs.rmSync(withoutCurl, { recursive: true });
    fs.rmSync(withoutBoth, { recursive: true });
  }
});

test("the messages follow LANG: English outside Spanish", () => {
  const taken = check(`check_ports ${occupiedPort}`, { LANG: "en_US.UTF-8" });
  assert.match(taken.output, new RegExp(`Port ${occupiedPort} is already in use`));
});

test("a filesystem with less than 8 GB free is refused; a big one passes", (t) => {
  if (process.getuid?.() !== 0) return t.skip("montar un tmpfs requiere root");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-disco-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", dir]);
  assert.equal(mounted.status, 0, String(mounted.stderr));
  try {
    const small = check(`check_disk "${dir}"`);
    assert.equal(small.status, 1);
    assert.match(
      small.output,
      /Hay \d+ MB libres en .*hacen falta al menos 8 GB \(la instalación y dos actualizaciones\)/,
    );
    const viaVariable = check("check_disk", { AYLLU_DISK_PATH: dir });
    assert.equal(viaVariable.status, 1);
  } finally {
    spawnSync("umount", [dir]);
    fs.rmdirSync(dir);
  }
  const big = spawnSync("df", ["-Pk", "/"], { encoding: "utf8" });
  const freeKb = Number(big.stdout.trim().split("\n")[1].split(/\s+/)[3]);
  if (freeKb >= 8 * 1024 * 1024) assert.equal(check('check_disk "/"').status, 0);
});

test("a domain that does not reach this machine is refused; one that does passes", async () => {
  const port = await freePort();
  const bind = { AYLLU_TOKEN_BIND: "127.0.0.1" };
  // The domain resolves to another address than the one serving the token: another machine.
  const elsewhere = check(`check_domain eventos.prueba.test ${port}`, {
    ...bind,
    AYLLU_RESOLVE: "127.0.0.2",
  });
  assert.equal(elsewhere.status, 1);
  assert.match(elsewhere.output, /El dominio eventos.prueba.test no llega a esta máquina/);
  // It names where the domain points, so the volunteer can compare it with the server's address.
  assert.match(
    elsewhere.output,
    /\(apunta a 127\.0\.0\.2; se pidió http:\/\/eventos\.prueba\.test:/,
  );
  assert.doesNotMatch(elsewhere.output, /no existe en el DNS/);
  // A name no DNS knows (.invalid never resolves): said as itself, not as pointing elsewhere.
  const name = `nx-${Math.random().toString(36).slice(2, 10)}.invalid`;
  const unknown = check(`check_domain ${name} ${port}`, bind);
  assert.equal(unknown.status, 1);
  assert.match(
    unknown.output,
    new RegExp(
      `El dominio ${name.replace(".", "\\.")} no existe en el DNS \\(no tiene registro A ni AAAA\\)`,
    ),
  );
  assert.match(unknown.output, /espera a que se propague/);
  assert.doesNotMatch(unknown.output, /no llega a esta máquina/);
  assert.match(
    check(`check_domain ${name} ${port}`, { ...bind, LANG: "en_US.UTF-8" }).output,
    /does not exist in DNS \(it has no A or AAAA record\)/,
  );
  // Resolving here, the one-time token comes back.
  const here = check(`check_domain eventos.prueba.test ${port}`, {
    ...bind,
    AYLLU_RESOLVE: "127.0.0.1",
  });
  assert.equal(here.status, 0, here.output);
  // Something else answering on the port is not this installer's token.
  const impostor = net.createServer((socket) =>
    socket.end("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhola!"),
  );
  await new Promise((resolve) => impostor.listen(0, "127.0.0.2", resolve));
  const other = check(`check_domain eventos.prueba.test ${impostor.address().port}`, {
    ...bind,
    AYLLU_RESOLVE: "127.0.0.2",
  });
  impostor.close();
  assert.equal(other.status, 1);
  assert.match(check("check_domain localhost").output, /no es un nombre de dominio/);
});

test("not root is refused", () => {
  const notRoot = check("check_root", { AYLLU_UID: "1000" });
  assert.equal(notRoot.status, 1);
  assert.match(notRoot.output, /como root/);
  assert.equal(check("check_root", { AYLLU_UID: "0" }).status, 0);
});

test("2 GB of memory or less without swap, or less than 1 GB with it, gets the swap file offered with its command", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-memoria-"));
  const meminfo = (mem, swap) => {
    const file = path.join(dir, `meminfo-${mem}-${swap}`);
    fs.writeFileSync(file, `MemTotal:  ${mem} kB\nSwapTotal:  ${swap} kB\n`);
    return { AYLLU_MEMINFO: file };
  };
  for (const mem of [512000, 1016000, 2040000]) {
    const refused = check("check_memory", meminfo(mem, 0));
    assert.equal(refused.status, 1);
    assert.match(
      refused.output,
      /nada de swap; con 2 GB o menos hace falta un archivo de swap\. Créalo con: fallocate -l 2G \/swapfile .*swapon \/swapfile/,
    );
  }
  assert.equal(check("check_memory", meminfo(1016000, 2097148)).status, 0);
  assert.equal(check("check_memory", meminfo(4040000, 0)).status, 0);
  const tiny = check("check_memory", meminfo(300000, 400000));
  assert.equal(tiny.status, 1);
  assert.match(tiny.output, /683 MB de memoria y swap; hace falta 1 GB/);
  fs.rmSync(dir, { recursive: true });
});

test("wrong answers get a clear message: e-mail, time zone, domain", () => {
  assert.match(check("check_email 'no-es-correo'").output, /no es una dirección de correo/);
  assert.equal(check("check_email ana@comunidad.org").status, 0);
  assert.match(check("check_timezone Marte/Olimpo").output, /no es una zona horaria/);
  assert.equal(check("check_timezone ../../etc/passwd").status, 1);
  assert.equal(check("check_timezone America/La_Paz").status, 0);
  assert.match(check("check_domain 'http://x.org/'").output, /no es un nombre de dominio/);
});

test("workers fit the memory: one under 2 GB, then about 250 MB each, at most the cores", () => {
  assert.equal(check("workers_for_memory 1000000 4").output.trim(), "1");
  assert.equal(check("workers_for_memory 500000 4").output.trim(), "1");
  assert.equal(check("workers_for_memory 2097152 4").output.trim(), "4");
  assert.equal(check("workers_for_memory 3000000 16").output.trim(), "9");
  assert.equal(check("workers_for_memory 8000000 2").output.trim(), "2");
});

test("an unattended install without an answer fails and writes nothing", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-instalar-"));
  const result = check('ask AYLLU_DOMAIN "p" "q"', { AYLLU_UNATTENDED: "1", AYLLU_DIR: dir });
  assert.equal(result.status, 1);
  assert.match(result.output, /falta AYLLU_DOMAIN/);
  assert.deepEqual(fs.readdirSync(dir), []);
  fs.rmSync(dir, { recursive: true });
});

test("offers are accepted by their flag when unattended, refused without it, asked otherwise", () => {
  const unattended = { AYLLU_UNATTENDED: "1" };
  assert.equal(
    check('yes_to "p" "q" AYLLU_ADD_SWAP', { ...unattended, AYLLU_ADD_SWAP: "1" }).status,
    0,
  );
  assert.equal(check('yes_to "p" "q" AYLLU_ADD_SWAP', unattended).status, 1);
  const asked = spawnSync(
    "bash",
    ["-c", `. "${ayllu}"; yes_to "¿Creo el swap?" "Swap?" AYLLU_ADD_SWAP`],
    {
      encoding: "utf8",
      input: "s\n",
      env: { ...process.env, LANG: "es_BO.UTF-8", AYLLU_UNATTENDED: "" },
    },
  );
  assert.equal(asked.status, 0);
  assert.match(asked.stderr, /¿Creo el swap\? \[s\/N\]/);
  // With enough memory nothing is offered, and nothing is asked.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-memoria-"));
  fs.writeFileSync(path.join(dir, "meminfo"), "MemTotal:  4096000 kB\nSwapTotal: 0 kB\n");
  assert.equal(
    check("offer_swap", { AYLLU_MEMINFO: path.join(dir, "meminfo"), ...unattended }).status,
    0,
  );
  // Short of memory, unattended without --add-swap: refused, the fix printed.
  fs.writeFileSync(path.join(dir, "meminfo"), "MemTotal:  512000 kB\nSwapTotal: 0 kB\n");
  const refused = check("offer_swap", { AYLLU_MEMINFO: path.join(dir, "meminfo"), ...unattended });
  assert.equal(refused.status, 1);
  assert.match(refused.output, /hace falta un archivo de swap/);
  fs.rmSync(dir, { recursive: true });
});

/** `./ayllu install` unattended in an empty folder, with FLAGS; its status, output and folder. */
async function install(flags, env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-instalar-"));
  const port = await freePort();
  const result = spawnSync(
    "bash",
    [
      ayllu,
      "install",
      "--unattended",
      "--http-port",
      String(port),
      "--https-port",
      String(await freePort()),
      ...flags,
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        LANG: "es_BO.UTF-8",
        AYLLU_DIR: dir,
        AYLLU_UID: "0",
        AYLLU_ENGINE: "podman",
        AYLLU_RESOLVE: "127.0.0.1",
        AYLLU_TOKEN_BIND: "127.0.0.1",
        AYLLU_DISK_PATH: "/",
        ...env,
      },
      timeout: 60_000,
    },
  );
  const files = fs.readdirSync(dir);
  fs.rmSync(dir, { recursive: true });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, files };
}

const answers = ["--domain", "eventos.prueba.test", "--admin-email", "ana@prueba.test"];

test("a whole unattended install with a wrong answer says which and writes nothing", async (t) => {
  const df = spawnSync("df", ["-Pk", "/"], { encoding: "utf8" });
  if (Number(df.stdout.trim().split("\n")[1].split(/\s+/)[3]) < 8 * 1024 * 1024)
    return t.skip("hacen falta 8 GB libres para pasar las comprobaciones");
  const cases = [
    [[...answers], /falta el proveedor de inicio de sesión: --google-client-id/],
    [[...answers, "--email-only"], /hace falta SMTP_URL/],
    [
      [...answers, "--email-only", "--smtp-url", "http://correo.test"],
      /SMTP_URL debe ser una URL smtp/,
    ],
    [
      [
        ...answers,
        "--oidc-issuer",
        "http://sin-tls.test",
        "--oidc-client-id",
        "a",
        "--oidc-client-secret",
        "b",
      ],
      /el issuer debe ser una dirección https/,
    ],
    [
      [...answers, "--tls", "no-es-correo", "--email-only"],
      /--tls es el correo para Let's Encrypt, o internal/,
    ],
    [
      [...answers, "--email-only", "--smtp-url", "smtp://c.test", "--timezone", "Marte/Olimpo"],
      /no es una zona horaria/,
    ],
    [
      ["--domain", "eventos.prueba.test", "--admin-email", "ana", "--email-only"],
      /'ana' no es una dirección de correo/,
    ],
    [["--domain", "localhost", "--admin-email", "ana@prueba.test"], /no es un nombre de dominio/],
    [
      [
        ...answers,
        "--email-only",
        "--smtp-url",
        "smtp://c.test",
        "--image",
        "localhost/ayllu:no-existe-xyz",
      ],
      /no existe la imagen localhost\/ayllu:no-existe-xyz/,
    ],
    [[...answers, "--bandera-rara"], /opción desconocida: --bandera-rara/],
  ];
  for (const [flags, message] of cases) {
    const result = await install(flags);
    assert.equal(result.status, 1, `${flags.join(" ")}\n${result.output}`);
    assert.match(result.output, message);
    assert.match(result.output, /nada cambió|opción desconocida/);
    assert.deepEqual(result.files, [], `${flags.join(" ")} wrote ${result.files.join(", ")}`);
  }
  const badPort = await install([...answers, "--http-port", "ochenta"]);
  assert.match(badPort.output, /los puertos deben ser números de 1 a 65535/);
  assert.deepEqual(badPort.files, []);
});

test("an existing .env means installed: install refuses and leaves it alone", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-instalado-"));
  fs.writeFileSync(path.join(dir, ".env"), "AYLLU_DOMAIN=ya.test\n");
  const result = spawnSync("bash", [ayllu, "install", "--unattended"], {
    encoding: "utf8",
    env: { ...process.env, LANG: "es_BO.UTF-8", AYLLU_DIR: dir },
  });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /este servidor ya está instalado/);
  // It names the way on: how it is, how to start it, how to finish an upgrade left half-way.
  assert.match(result.stderr, /\.\/ayllu status.*\.\/ayllu start.*\.\/ayllu repair/);
  assert.equal(fs.readFileSync(path.join(dir, ".env"), "utf8"), "AYLLU_DOMAIN=ya.test\n");
  fs.rmSync(dir, { recursive: true });
});

/** `./ayllu ARGS` in `dir`, in Spanish; its status and output. */
function ayllu_in(dir, args, env = {}) {
  const result = spawnSync("bash", [ayllu, ...args], {
    encoding: "utf8",
    env: { ...process.env, LANG: "es_BO.UTF-8", AYLLU_DIR: dir, AYLLU_ENGINE: "podman", ...env },
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test("an install or upgrade left half-way is named, with the command that goes on from it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-a-medias-"));
  fs.writeFileSync(path.join(dir, ".env"), "AYLLU_PROJECT=amedias\n");
  fs.writeFileSync(path.join(dir, ".actualizando"), "probando\nayllu-amedias:nueva\n");
  for (const command of ["upgrade", "start"]) {
    const refused = ayllu_in(dir, [command]);
    assert.equal(refused.status, 1);
    assert.match(
      refused.output,
      /una actualización quedó a medias \(paso probando\): \.\/ayllu repair vuelve a la versión anterior/,
    );
  }
  fs.rmSync(path.join(dir, ".actualizando"));
  fs.writeFileSync(path.join(dir, ".instalando"), "arranque\n");
  const install = ayllu_in(dir, ["upgrade"]);
  assert.equal(install.status, 1);
  assert.match(
    install.output,
    /una instalación quedó a medias \(paso arranque\): termínala con \.\/ayllu install/,
  );
  fs.rmSync(dir, { recursive: true });
});

test("each folder is its own project: containers, volumes and image tags named after it", () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-proyectos-"));
  const names = (folder, env = {}) => {
    const dir = path.join(parent, folder);
    fs.mkdirSync(dir, { recursive: true });
    return check('printf "%s %s %s" "$AYLLU_PROJECT" "$SITE_IMAGE" "$PREVIOUS_IMAGE"', {
      AYLLU_DIR: dir,
      AYLLU_PROJECT: "",
      ...env,
    }).output;
  };
  assert.equal(names("ayllu"), "ayllu ayllu:latest ayllu:anterior");
  assert.equal(
    names("Club Andino"),
    "club-andino ayllu-club-andino:latest ayllu-club-andino:anterior",
  );
  assert.equal(
    names("otro", { AYLLU_PROJECT: "feria" }),
    "feria ayllu-feria:latest ayllu-feria:anterior",
  );
  // An install from before .env named its project was "ayllu", whatever its folder.
  fs.writeFileSync(path.join(parent, "Club Andino", ".env"), "AYLLU_DOMAIN=a.test\n");
  assert.equal(names("Club Andino"), "ayllu ayllu:latest ayllu:anterior");
  fs.writeFileSync(path.join(parent, "Club Andino", ".env"), "AYLLU_PROJECT=club\n");
  assert.equal(names("Club Andino"), "club ayllu-club:latest ayllu-club:anterior");
  fs.rmSync(parent, { recursive: true });
});

test("a new .env over a project's leftover volumes is refused, naming how to get on; nothing is written", async (t) => {
  if (spawnSync("podman", ["--version"]).status !== 0) return t.skip("hace falta podman");
  const df = spawnSync("df", ["-Pk", "/"], { encoding: "utf8" });
  if (Number(df.stdout.trim().split("\n")[1].split(/\s+/)[3]) < 8 * 1024 * 1024)
    return t.skip("hacen falta 8 GB libres para pasar las comprobaciones");
  const project = `restos${process.pid}`;
  spawnSync("podman", ["volume", "create", `${project}_db_data`]);
  try {
    const result = await install([...answers, "--email-only", "--smtp-url", "smtp://c.test"], {
      AYLLU_PROJECT: project,
    });
    assert.equal(result.status, 1);
    assert.match(
      result.output,
      new RegExp(
        `este proyecto \\(${project}\\) ya tiene contenedores o volúmenes \\(${project}_db_data`,
      ),
    );
    assert.match(result.output, /Recupera ese \.env y corre \.\/ayllu start/);
    assert.match(
      result.output,
      new RegExp(`podman volume rm ${project}_site_data ${project}_db_data`),
    );
    assert.deepEqual(result.files, []);
  } finally {
    spawnSync("podman", ["volume", "rm", "-f", `${project}_db_data`]);
  }
});
