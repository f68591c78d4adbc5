#!/usr/bin/env bash
# npm run test:deploy: the production stack for real, on this machine (docs/instalar.md, "Cómo se
# prueba"). As root, with podman (runc), podman-compose, caddy and debootstrap from Debian:
#   1. the installer's checks against a port taken, a small disk, a domain that does not reach here;
#   2. builds the image from this repository (Dockerfile) and checks it (size, user, HEALTHCHECK);
#   3. `./ayllu install --small --unattended` (Caddy and the site on its embedded database),
#      interrupted at each step (image, first start, first admin) and finished by the command it
#      names; then `./ayllu upgrade` to a deliberately broken version (the good image plus a
#      migration that breaks the home page): it must go back to the copy of the data folder;
#   4. `./ayllu install --unattended` of compose.yaml (Caddy with `tls internal`, the site,
#      PostgreSQL) plus a real OpenID provider served through Caddy, and over HTTPS signs in,
#      publishes an event with a photo and has a member join it (tests/deploy/journey.ts);
#   5. a reboot stand-in (containers stopped, then podman-restart.service's own ExecStart), a new
#      PostgreSQL password in .env taken by `./ayllu start`, backup, backup --to a file on the
#      host, restore of it, maintenance;
#   6. two upgrades to one-layer good versions, measuring container storage; an upgrade
#      interrupted while trying the new version, undone by `./ayllu repair`; an upgrade whose
#      migration fails, noticed at once, its failing statement shown first, rolled back;
#   7. prints the figures: image, build, memory at rest, install, reboot, storage, downtime.
# Everything it starts is removed on exit. Base images are local stand-ins (tests/deploy/standins.sh).
# Project, container and image names carry DEPLOY_HTTP_PORT: runs on other ports stay apart.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
STARTED=$SECONDS
HTTP_PORT=${DEPLOY_HTTP_PORT:-3480}
HTTPS_PORT=${DEPLOY_HTTPS_PORT:-3444}
ISSUER_PORT=${DEPLOY_ISSUER_PORT:-3445}
SMALL_HTTP_PORT=${DEPLOY_SMALL_HTTP_PORT:-3482}
SMALL_HTTPS_PORT=${DEPLOY_SMALL_HTTPS_PORT:-3446}
DOMAIN=ayllu.test
# Named after this run's port, so that two runs on one host (other ports) keep their projects,
# containers, volumes and images apart.
PROJECT=aylluprueba$HTTP_PORT
SMALL_PROJECT=aylluchico$HTTP_PORT
IMAGE=localhost/ayllu-prueba$HTTP_PORT:latest
BROKEN=localhost/ayllu-prueba$HTTP_PORT:rota
BROKEN_SQL=localhost/ayllu-prueba$HTTP_PORT:rota-sql

step() { printf '\n== %s (%d s)\n' "$1" $((SECONDS - STARTED)); }
die() {
  printf 'FALLA: %s\n' "$1" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || die "la prueba de despliegue corre como root (podman con runc)"
for tool in podman podman-compose caddy debootstrap openssl python3 curl; do
  command -v "$tool" >/dev/null || die "falta $tool: apt-get install -y podman podman-compose buildah runc caddy debootstrap openssl python3 curl"
done
# Room for the stand-in images, the build and the stack.
free_kb=$(df -Pk /var/lib | awk 'NR == 2 {print $4}')
[ "$free_kb" -ge $((8 * 1024 * 1024)) ] || die "hacen falta 8 GB libres en /var/lib (hay $((free_kb / 1024)) MB)"

# runc (crun refuses hybrid cgroups), explicit limits.
if ! grep -q 'runtime = "runc"' /etc/containers/containers.conf 2>/dev/null; then
  mkdir -p /etc/containers
  cat >/etc/containers/containers.conf <<'EOF'
# Written by Ayllu's deploy test (tests/deploy/run.sh).
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=4000:4000"]
[engine]
runtime = "runc"
EOF
fi

WORK=$(mktemp -d /tmp/ayllu-despliegue.XXXXXX)
TMPFS=""
cleanup() {
  set +e
  if [ -f "$WORK/compose.yaml" ]; then
    (cd "$WORK" && podman-compose -p "$PROJECT" -f compose.yaml -f compose.prueba.yaml down -v >/dev/null 2>&1)
  fi
  for project in "$PROJECT" "$SMALL_PROJECT"; do
    podman ps -a --filter "label=io.podman.compose.project=$project" -q | xargs -r podman rm -f >/dev/null 2>&1
    podman volume ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman volume rm -f >/dev/null 2>&1
    podman network ls -q --filter "label=io.podman.compose.project=$project" | xargs -r podman network rm -f >/dev/null 2>&1
  done
  podman rmi -f "$BROKEN" "$BROKEN_SQL" "ayllu-$PROJECT:latest" "ayllu-$PROJECT:anterior" "ayllu-$SMALL_PROJECT:latest" \
    "ayllu-$SMALL_PROJECT:anterior" "localhost/ayllu-prueba$HTTP_PORT:v1" "localhost/ayllu-prueba$HTTP_PORT:v2" "$IMAGE" >/dev/null 2>&1
  [ -n "$TMPFS" ] && umount "$TMPFS" 2>/dev/null && rmdir "$TMPFS"
  rm -rf "$WORK"
}
trap cleanup EXIT

step "Comprobaciones del instalador"
node --test tests/deploy/installer-checks.test.mjs

step "Imágenes base de reemplazo"
bash tests/deploy/standins.sh

step "Construir la imagen"
build_args=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  # This machine reaches the npm registry through a proxy with its own CA.
  build_args=(-v "$NODE_EXTRA_CA_CERTS:/etc/ssl/certs/egress-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/egress-ca.crt)
fi
build_started=$SECONDS
podman build --pull=never --format docker "${build_args[@]}" -t "$IMAGE" . >"$WORK/build.log" 2>&1 || {
  tail -n 40 "$WORK/build.log"
  die "la imagen no se construyó"
}
BUILD_SECONDS=$((SECONDS - build_started))
IMAGE_BYTES=$(podman image inspect --format '{{.Size}}' "$IMAGE")
[ "$IMAGE_BYTES" -le $((300 * 1000 * 1000)) ] || die "la imagen pesa $((IMAGE_BYTES / 1000000)) MB (más de 300)"
[ "$(podman image inspect --format '{{.Config.User}}' "$IMAGE")" = "10001:10001" ] || die "la imagen no corre con el usuario 10001"
podman image inspect --format '{{json .Config.Healthcheck}}' "$IMAGE" | grep -q healthz || die "la imagen no tiene HEALTHCHECK en /healthz"
podman image inspect --format '{{json .Config.Volumes}}' "$IMAGE" | grep -q '"/data"' || die "la imagen no declara el volumen /data"
podman run --rm --pull=never --no-healthcheck "$IMAGE" node -e 'process.exit(process.versions.node.startsWith("24.") ? 0 : 1)' ||
  die "la imagen no corre Node 24"
podman run --rm --pull=never --no-healthcheck "$IMAGE" sh -c 'test ! -e node_modules/vite && test ! -e node_modules/vitest' ||
  die "la imagen lleva dependencias de desarrollo"
echo "Imagen: $((IMAGE_BYTES / 1000000)) MB, construida en ${BUILD_SECONDS} s."

step "Una versión rota a propósito, para las vueltas atrás"
mkdir -p "$WORK/rota"
node -e '
  const fs = require("fs");
  const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8"));
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const last = journal.entries.at(-1);
  journal.entries.push({ idx: last.idx + 1, version: last.version, when: newest + 1000, tag: "9999_version_rota", breakpoints: true });
  fs.writeFileSync(process.argv[1] + "/_journal.json", JSON.stringify(journal, null, 2));
' "$WORK/rota"
# A migration that works, on a table the home page needs: the new version migrates and then
# cannot show the site. The previous version must not run on that database (it refuses a newer
# one), so only the copy made before the migration brings the site back.
echo 'ALTER TABLE "events" RENAME TO "eventos_rotos";' >"$WORK/rota/9999_version_rota.sql"
printf 'FROM %s\nCOPY 9999_version_rota.sql drizzle/9999_version_rota.sql\nCOPY _journal.json drizzle/meta/_journal.json\n' \
  "$IMAGE" >"$WORK/rota/Dockerfile"
podman build --pull=never --format docker -q -t "$BROKEN" "$WORK/rota" >/dev/null
echo "Versión rota: la buena más una migración que renombra la tabla events."
# A migration that fails: the process ends as it starts, which the upgrade must notice at once.
mkdir -p "$WORK/rota-sql"
cp "$WORK/rota/_journal.json" "$WORK/rota-sql/"
echo 'ALTER TABLE "tabla_que_no_existe" ADD COLUMN "nota" text;' >"$WORK/rota-sql/9999_version_rota.sql"
cp "$WORK/rota/Dockerfile" "$WORK/rota-sql/"
podman build --pull=never --format docker -q -t "$BROKEN_SQL" "$WORK/rota-sql" >/dev/null
echo "Versión rota en SQL: una migración sobre una tabla que no existe."

step "./ayllu install --small: Caddy y el sitio sobre su base de datos embebida"
SMALL="$WORK/pequeno"
mkdir -p "$SMALL"
cp -r compose.yaml compose.pequeno.yaml ayllu deploy "$SMALL/"
rm -rf "$SMALL/deploy/sitios" && mkdir "$SMALL/deploy/sitios"
small_ayllu() {
  AYLLU_DIR="$SMALL" AYLLU_PROJECT="$SMALL_PROJECT" AYLLU_ENGINE=podman AYLLU_RESOLVE=127.0.0.1 LANG=es_BO.UTF-8 \
    "$SMALL/ayllu" "$@"
}
small_install() {
  small_ayllu install --unattended --small --image "$IMAGE" --domain "$DOMAIN" --admin-email jefa@ayllu.test \
    --email-only --smtp-url smtp://127.0.0.1:2525 --timezone America/La_Paz --tls internal \
    --http-port "$SMALL_HTTP_PORT" --https-port "$SMALL_HTTPS_PORT"
}
# Interrupted at each step (as Ctrl-C there would), then finished by the command it names.
for point in imagen arranque administrador; do
  if AYLLU_INTERRUPT=$point small_install >"$WORK/pequeno-$point.log" 2>&1; then
    cat "$WORK/pequeno-$point.log"
    die "la instalación interrumpida en '$point' terminó como si nada"
  fi
  grep -q "Instalación interrumpida: ./ayllu install la termina." "$WORK/pequeno-$point.log" || {
    cat "$WORK/pequeno-$point.log"
    die "la instalación interrumpida en '$point' no nombró cómo terminarla"
  }
  [ -f "$SMALL/.instalando" ] || die "la instalación interrumpida en '$point' no dejó .instalando"
  if [ "$point" != administrador ]; then
    small_ayllu status >"$WORK/pequeno-status-$point.log" 2>&1 || true
    ! grep -q "El sitio responde" "$WORK/pequeno-status-$point.log" || die "interrumpida en '$point', el sitio ya respondía"
  fi
  echo "Interrumpida en '$point': dice ./ayllu install."
  # The last interruption is finished below, by the same command.
  [ "$point" = administrador ] && break
  small_install >"$WORK/pequeno-fin-$point.log" 2>&1 || {
    cat "$WORK/pequeno-fin-$point.log"
    die "./ayllu install no terminó la instalación interrumpida en '$point'"
  }
  grep -q "Una instalación quedó a medias" "$WORK/pequeno-fin-$point.log" || die "./ayllu install no siguió la instalación a medias"
  small_ayllu stop >/dev/null 2>&1
  # A fresh start for the next step's interruption.
  (cd "$SMALL" && podman-compose -p "$SMALL_PROJECT" -f compose.pequeno.yaml down -v >/dev/null 2>&1) || true
  rm -f "$SMALL/.env" "$SMALL/.instalando"
done
small_started=$SECONDS
small_install >"$WORK/pequeno.log" 2>&1 || {
  cat "$WORK/pequeno.log"
  die "./ayllu install --small falló"
}
SMALL_FINISH_SECONDS=$((SECONDS - small_started))
[ ! -f "$SMALL/.instalando" ] || die "la instalación terminada dejó .instalando"
grep -q "Listo en [0-9]* s: https://$DOMAIN:$SMALL_HTTPS_PORT" "$WORK/pequeno.log" || die "el instalador no dijo Listo: $(cat "$WORK/pequeno.log")"
[ "$(stat -c %a "$SMALL/.env")" = 600 ] || die "el .env del sitio pequeño no es 0600"
grep -q '^EMBEDDED_DATABASE=1$' "$SMALL/.env" && ! grep -q POSTGRES_PASSWORD "$SMALL/.env" ||
  die "el .env del sitio pequeño no pide la base embebida: $(cut -d= -f1 "$SMALL/.env" | tr '\n' ' ')"
small_site="${SMALL_PROJECT}_site_1"
[ -z "$(podman ps -q --filter "name=^${SMALL_PROJECT}_db_1$")" ] || die "el sitio pequeño arrancó PostgreSQL"
podman exec "$small_site" sh -c 'test "$(stat -c %a /data/session-secret)" = 600 && test "$(stat -c %u /data/pgdata)" = 10001' ||
  die "el secreto de sesión o los datos del sitio pequeño no están en /data como deben"
dev=$(podman exec "$small_site" node -e "Promise.all(['/__dev/oidc/.well-known/openid-configuration','/__dev/correo'].map(p=>fetch('http://127.0.0.1:3000'+p).then(r=>r.status))).then(s=>console.log(s.join(' ')))")
[ "$dev" = "404 404" ] || die "el proveedor o el buzón de desarrollo responden en producción: $dev"
curl -fsS --max-time 10 -k --resolve "$DOMAIN:$SMALL_HTTPS_PORT:127.0.0.1" "https://$DOMAIN:$SMALL_HTTPS_PORT/healthz" >/dev/null ||
  die "el sitio pequeño no responde por HTTPS a través de Caddy"
echo "Sitio pequeño instalado: responde por HTTPS, secreto de sesión 0600 en /data, sin proveedor ni buzón de desarrollo, sin PostgreSQL."

step "./ayllu admin-link en el sitio pequeño (solo correo, sin un SMTP que responda): entra a Diagnóstico por la dirección del contenedor"
small_ayllu admin-link jefa@ayllu.test >"$WORK/admin-link.log" 2>&1 || {
  cat "$WORK/admin-link.log"
  die "./ayllu admin-link falló"
}
link_path=$(grep -o '/login/consola/[A-Za-z0-9_.-]*' "$WORK/admin-link.log" | head -n 1)
[ -n "$link_path" ] || die "./ayllu admin-link no imprimió un enlace: $(cat "$WORK/admin-link.log")"
# Opened at http://127.0.0.1:3000, not at PUBLIC_URL (https://$DOMAIN:…): the GET asks, the POST
# signs in and leads to Diagnóstico, whose page then opens with that session; a second POST fails.
link_result=$(podman exec "$small_site" node -e "
const base = 'http://127.0.0.1:3000', path = process.argv[1];
(async () => {
  const asked = await fetch(base + path);
  const post = () => fetch(base + path, { method: 'POST', redirect: 'manual',
    headers: { Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' });
  const signedIn = await post();
  const cookie = (signedIn.headers.get('set-cookie') || '').split(';')[0];
  const page = await fetch(base + '/admin/diagnostico', { headers: { Cookie: cookie } });
  const again = await post();
  console.log([asked.status, signedIn.status, new URL(signedIn.headers.get('location') || '', base).pathname, page.status, again.status].join(' '));
})();" "$link_path")
[ "$link_result" = "200 302 /admin/diagnostico 200 400" ] ||
  die "el enlace de la consola no llevó a Diagnóstico una sola vez: $link_result"
echo "Enlace de la consola: pregunta, entra una vez y abre Diagnóstico en http://127.0.0.1:3000 del contenedor."

step "./ayllu backup --to en el sitio pequeño: su base embebida es de un solo proceso; el sitio se detiene unos segundos y vuelve"
small_ayllu backup --to "$WORK/pequeno.ayllu.gz" >"$WORK/pequeno-backup.log" 2>&1 || {
  cat "$WORK/pequeno-backup.log"
  die "./ayllu backup --to falló en el sitio pequeño"
}
gzip -t "$WORK/pequeno.ayllu.gz" || die "la copia del sitio pequeño no es un gzip entero"
[ ! -f "$SMALL/deploy/mantenimiento/activo" ] || die "el sitio pequeño quedó en mantenimiento tras la copia"
curl -fsS --max-time 10 -k --resolve "$DOMAIN:$SMALL_HTTPS_PORT:127.0.0.1" "https://$DOMAIN:$SMALL_HTTPS_PORT/healthz" >/dev/null ||
  die "el sitio pequeño no volvió a responder después de la copia"
echo "Copia del sitio pequeño: $(stat -c %s "$WORK/pequeno.ayllu.gz") bytes, y el sitio responde otra vez."

step "./ayllu upgrade del sitio pequeño a la versión rota: vuelve a la copia de la carpeta de datos"
small_upgrade_started=$SECONDS
if AYLLU_HEALTH_TIMEOUT=60 small_ayllu upgrade --image "$BROKEN" >"$WORK/pequeno-upgrade.log" 2>&1; then
  cat "$WORK/pequeno-upgrade.log"
  die "la actualización del sitio pequeño a la versión rota se dio por buena"
fi
SMALL_UPGRADE_SECONDS=$((SECONDS - small_upgrade_started))
grep -q "volvió a la versión anterior" "$WORK/pequeno-upgrade.log" || {
  cat "$WORK/pequeno-upgrade.log"
  die "el sitio pequeño no volvió a la versión anterior"
}
podman exec "$small_site" sh -c 'test -d /data/pgdata.antes' || die "no quedó la copia /data/pgdata.antes"
[ ! -f "$SMALL/deploy/mantenimiento/activo" ] || die "el sitio pequeño quedó en mantenimiento"
small_ayllu status >"$WORK/pequeno-status.log" 2>&1 || true
grep -q "El sitio responde" "$WORK/pequeno-status.log" || die "después de volver atrás el sitio pequeño no responde"
(cd "$SMALL" && podman-compose -p "$SMALL_PROJECT" -f compose.pequeno.yaml down -v >/dev/null 2>&1) || true
podman rmi -f "ayllu-$SMALL_PROJECT:latest" "ayllu-$SMALL_PROJECT:anterior" >/dev/null 2>&1 || true
echo "Sitio pequeño: la versión rota volvió atrás en ${SMALL_UPGRADE_SECONDS} s en total, con la copia de /data/pgdata."

step "Sin EMBEDDED_DATABASE ni DATABASE_URL, la imagen no arranca en producción"
podman run --rm --pull=never --no-healthcheck "$IMAGE" node server.js 2>"$WORK/refused.log" >/dev/null && die "arrancó en producción sin DATABASE_URL ni EMBEDDED_DATABASE"
grep -q EMBEDDED_DATABASE "$WORK/refused.log" || die "sin base de datos, el mensaje no nombra EMBEDDED_DATABASE: $(cat "$WORK/refused.log")"

step "./ayllu install: compose.yaml con Caddy, PostgreSQL y un proveedor OpenID"
cp -r compose.yaml compose.pequeno.yaml ayllu deploy Dockerfile "$WORK/"
cp tests/deploy/issuer.mjs "$WORK/issuer.mjs"
mkdir -p "$WORK/ca"
# Caddy's local CA, made here so that the site can trust it from its first start.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj "/CN=Ayllu prueba de despliegue" -keyout "$WORK/ca/root.key" -out "$WORK/ca/root.crt" 2>/dev/null
client_secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
# The nightly backup runs when a process starts within BACKUP_HOUR: this very hour, so it runs as
# the site starts (not in an hour's last minutes, which the install could outlast).
while [ "$(TZ=America/La_Paz date +%-M)" -ge 56 ]; do sleep 10; done
NIGHTLY_HOUR=$(TZ=America/La_Paz date +%-H)
cat >"$WORK/compose.prueba.yaml" <<EOF
# The deploy test's additions: the stand-in PostgreSQL, Caddy's CA made beforehand, the provider
# behind Caddy.
services:
  db:
    image: localhost/ayllu-standin/postgres:15
  caddy:
    ports:
      - "$ISSUER_PORT:$ISSUER_PORT"
    volumes:
      - ./ca:/data/caddy/pki/authorities/local
  site:
    environment:
      NODE_EXTRA_CA_CERTS: /ca/root.crt
      BACKUP_HOUR: "$NIGHTLY_HOUR"
    volumes:
      - ./ca/root.crt:/ca/root.crt:ro
  issuer:
    image: $IMAGE
    # A real provider is elsewhere; this one must come back after the simulated reboot too.
    restart: always
    command: ["node", "/prueba/issuer.mjs"]
    environment:
      ISSUER: https://caddy:$ISSUER_PORT
      CLIENT_ID: ayllu
      CLIENT_SECRET: $client_secret
      REDIRECT_URI: https://$DOMAIN:$HTTPS_PORT/auth/callback
    volumes:
      - ./issuer.mjs:/prueba/issuer.mjs:ro
EOF
cat >"$WORK/deploy/sitios/proveedor.caddy" <<EOF
caddy:$ISSUER_PORT {
	tls internal
	reverse_proxy issuer:3000
}
EOF
export AYLLU_DIR="$WORK" AYLLU_PROJECT="$PROJECT" AYLLU_ENGINE=podman AYLLU_COMPOSE_FILES="$WORK/compose.prueba.yaml"
# Container storage (images, containers, volumes) in MB, as the disk sees it: -x leaves out the
# running containers' mounted root filesystems (their layers are counted once, where they lie);
# files that go while du reads make it fail, not the figure.
storage_mb() { { du -smx /var/lib/containers/storage 2>/dev/null || true; } | cut -f1; }
STORAGE_BEFORE_MB=$(storage_mb)
compose() { (cd "$WORK" && podman-compose -p "$PROJECT" -f compose.yaml -f compose.prueba.yaml "$@"); }
up_started=$SECONDS
AYLLU_RESOLVE=127.0.0.1 LANG=es_BO.UTF-8 ./ayllu install --unattended --image "$IMAGE" --domain "$DOMAIN" \
  --admin-email jefa@ayllu.test --oidc-issuer "https://caddy:$ISSUER_PORT" --oidc-client-id ayllu \
  --oidc-client-secret "$client_secret" --oidc-name "Proveedor de prueba" --timezone America/La_Paz \
  --tls internal --http-port "$HTTP_PORT" --https-port "$HTTPS_PORT" >"$WORK/install.log" 2>&1 || {
  cat "$WORK/install.log"
  compose logs --tail 40 >&2
  die "./ayllu install falló"
}
cat "$WORK/install.log"
INSTALL_SECONDS=$((SECONDS - up_started))
grep -q "https://$DOMAIN:$HTTPS_PORT/auth/callback" "$WORK/install.log" || die "el instalador no imprimió el URI de redirección"
# Quiet success: podman-compose's own 'Error:' lines (for things it then does anyway) go to ayllu.log.
! grep -i "error" "$WORK/install.log" || die "una instalación que salió bien imprimió una línea de error"
[ -s "$WORK/ayllu.log" ] || die "no quedó ayllu.log con la salida de podman-compose"
[ "$(stat -c %a "$WORK/.env")" = 600 ] || die "el .env no es 0600"
for name in SESSION_SECRET POSTGRES_PASSWORD; do
  [ "$(sed -n "s/^$name=//p" "$WORK/.env" | wc -c)" -gt 40 ] || die "el instalador no generó $name"
done

export SITE="https://$DOMAIN:$HTTPS_PORT" CA_FILE="$WORK/ca/root.crt" ISSUER_HOST="caddy:$ISSUER_PORT" \
  ADMIN_EMAIL=jefa@ayllu.test STATE_FILE="$WORK/journey.json" HTTP_URL="http://$DOMAIN:$HTTP_PORT/"
https_health() {
  curl -fsS --max-time 5 --cacert "$WORK/ca/root.crt" --resolve "$DOMAIN:$HTTPS_PORT:127.0.0.1" \
    "https://$DOMAIN:$HTTPS_PORT/healthz" >/dev/null 2>&1
}
for _ in $(seq 1 120); do https_health && break; sleep 1; done
https_health || { compose logs --tail 40 >&2; die "https://$DOMAIN:$HTTPS_PORT/healthz no respondió a través de Caddy"; }
echo "El sitio responde por HTTPS a través de Caddy $((SECONDS - up_started)) s después de empezar ./ayllu install."
for _ in $(seq 1 30); do
  curl -fsS --max-time 5 --cacert "$WORK/ca/root.crt" --resolve "caddy:$ISSUER_PORT:127.0.0.1" \
    "https://caddy:$ISSUER_PORT/.well-known/openid-configuration" >/dev/null 2>&1 && break
  sleep 1
done

step "Iniciar sesión, publicar, subir una foto, unirse"
npx tsx tests/deploy/journey.ts setup || { compose logs --tail 60 site caddy issuer >&2; die "el recorrido falló"; }

step "Reinicio de la máquina: los contenedores detenidos, y podman-restart.service los arranca"
# A reboot leaves every container stopped (exited); Debian's podman-restart.service then runs its
# ExecStart, which starts those whose restart policy is `always`.
# (Without systemd here, podman says on stderr that it cannot reach it for the health checks' timers.)
podman stop -t 10 $(podman ps -q --filter "label=io.podman.compose.project=$PROJECT") >/dev/null 2>>"$WORK/reinicio.log"
https_health && die "con los contenedores detenidos el sitio seguía respondiendo"
unit=/usr/lib/systemd/system/podman-restart.service
[ -f "$unit" ] || die "no está $unit (paquete podman de Debian)"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit" | sed 's/\$LOGGING//')
reboot_started=$SECONDS
$exec_start >/dev/null 2>>"$WORK/reinicio.log"
for _ in $(seq 1 120); do https_health && break; sleep 1; done
https_health || { compose logs --tail 40 >&2; die "después del reinicio simulado el sitio no volvió"; }
REBOOT_SECONDS=$((SECONDS - reboot_started))
npx tsx tests/deploy/journey.ts check || die "después del reinicio simulado faltan datos"
echo "Después del reinicio ($exec_start) el sitio respondió en ${REBOOT_SECONDS} s, con sus datos."

step "Un .env nuevo sobre los contenedores: otra clave de PostgreSQL, y ./ayllu start"
new_password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
sed -i "s/^POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=$new_password/" "$WORK/.env"
LANG=es_BO.UTF-8 ./ayllu start >"$WORK/start.log" 2>&1 || { cat "$WORK/start.log"; die "./ayllu start con la clave nueva falló"; }
grep -q "El sitio responde" "$WORK/start.log" || die "./ayllu start no dijo que el sitio responde"
npx tsx tests/deploy/journey.ts check || die "con la clave nueva de .env faltan datos"
echo "La clave nueva de .env quedó en PostgreSQL: el sitio responde con sus datos."

step "Memoria en reposo"
sleep 10
# Two views: the containers' memory as their cgroups count it (page cache included), and the
# resident memory of their processes.
podman stats --no-stream --format '{{.Name}} {{.MemUsage}}' | grep "^${PROJECT}_" | grep -v issuer || true
MEMORY_MB=$(podman stats --no-stream --format json | node -e '
  const stats = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const mine = stats.filter((s) => s.name.startsWith(process.argv[1]) && !s.name.includes("issuer"));
  const units = { B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1048576, GiB: 1073741824 };
  const bytes = (text) => { const m = /([\d.]+)\s*([A-Za-z]+)/.exec(text); return m ? Number(m[1]) * (units[m[2]] ?? 1) : 0; };
  console.log(Math.round(mine.reduce((n, s) => n + bytes(String(s.mem_usage).split("/")[0]), 0) / 1e6));
' "${PROJECT}_")
RSS_MB=0
for service in caddy site db; do
  # Proportional set size: pages shared between processes (Node's code, PostgreSQL's shared
  # buffers) counted once.
  user=()
  # PostgreSQL's processes are readable by their own user only.
  [ "$service" = db ] && user=(--user postgres)
  kb=$(podman exec "${user[@]}" "${PROJECT}_${service}_1" sh -c 'cat /proc/[0-9]*/smaps_rollup 2>/dev/null; true' | awk '/^Pss:/ {n += $2} END {print n + 0}')
  echo "  ${service}: $((kb / 1024)) MB (PSS)"
  RSS_MB=$((RSS_MB + kb / 1024))
done
# The site's processes one by one (the cluster's primary and its workers).
podman exec "${PROJECT}_site_1" sh -c 'for p in /proc/[0-9]*; do
  [ -r "$p/smaps_rollup" ] || continue
  printf "    %s %s: %s MB\n" "${p#/proc/}" "$(tr "\0" " " <"$p/cmdline" | cut -c1-40)" \
    "$(awk "/^Pss:/ {print int(\$2 / 1024)}" "$p/smaps_rollup")"
done; true'
echo "Memoria del conjunto en reposo (Caddy, sitio con 2 procesos, PostgreSQL): ${MEMORY_MB} MB según los cgroups, ${RSS_MB} MB de memoria propia de sus procesos (PSS)"

step "La copia nocturna (BACKUP_HOUR es esta hora)"
nightly=""
for _ in $(seq 1 60); do
  nightly=$(podman exec "${PROJECT}_db_1" psql -U ayllu -d ayllu -tAq -c \
    "select file || ' ' || bytes from backup_runs where finished_at is not null and error is null limit 1" 2>/dev/null || true)
  [ -n "$nightly" ] && break
  sleep 2
done
[ -n "$nightly" ] || die "la copia nocturna no se hizo (backup_runs no tiene ninguna terminada)"
podman exec "${PROJECT}_site_1" sh -c "test -s /backups/${nightly%% *}" || die "la copia nocturna no está en /backups: $nightly"
echo "Copia nocturna hecha y registrada: ${nightly% *}, ${nightly##* } bytes."

step "./ayllu backup"
./ayllu backup | tee "$WORK/backup.log"
grep -q "Copia de seguridad escrita en /backups/ayllu-" "$WORK/backup.log" || die "./ayllu backup no escribió la copia"
LANG=es_BO.UTF-8 ./ayllu status | tee "$WORK/status.log"
grep -q "El sitio responde" "$WORK/status.log" || die "./ayllu status no dice que el sitio responde"

step "./ayllu backup --to: una copia nueva en el anfitrión, sin sobrescribir; y ./ayllu restore de ella"
LANG=es_BO.UTF-8 ./ayllu backup --to "$WORK/copia.ayllu.gz" | tee "$WORK/backup-to.log"
gzip -t "$WORK/copia.ayllu.gz" || die "./ayllu backup --to dejó una copia incompleta"
[ "$(stat -c %a "$WORK/copia.ayllu.gz")" = 600 ] || die "la copia de ./ayllu backup --to la pueden leer otros"
grep -q "^  scp .*copia.ayllu.gz \.$" "$WORK/backup-to.log" || die "./ayllu backup --to no dijo el comando scp"
if LANG=es_BO.UTF-8 ./ayllu backup --to "$WORK/copia.ayllu.gz" >"$WORK/backup-to-otra.log" 2>&1 ||
  ! grep -q "ya existe y no se sobrescribe" "$WORK/backup-to-otra.log"; then
  cat "$WORK/backup-to-otra.log"
  die "./ayllu backup --to sobre un archivo que existe no se negó"
fi
AYLLU_YES=1 ./ayllu restore "$WORK/copia.ayllu.gz" | tee "$WORK/restore.log"
grep -q "Copia restaurada en" "$WORK/restore.log" || die "./ayllu restore no restauró"
npx tsx tests/deploy/journey.ts check || die "después de restaurar faltan datos"

step "Mantenimiento: toda petición recibe la página de mantenimiento"
: >"$WORK/deploy/mantenimiento/activo"
npx tsx tests/deploy/journey.ts maintenance || die "el mantenimiento no rechazó la escritura"
rm -f "$WORK/deploy/mantenimiento/activo"

# Downtime as a visitor sees it: seconds in which https://…/healthz does not answer 200 while a
# command runs (probe_start; …; probe_stop sets DOWN).
probe_start() {
  rm -f "$WORK/fin-sondeo" "$WORK/caido.txt"
  (
    down=0
    while [ ! -f "$WORK/fin-sondeo" ]; do
      https_health || down=$((down + 1))
      sleep 1
    done
    echo "$down" >"$WORK/caido.txt"
  ) &
  PROBE=$!
}
probe_stop() {
  touch "$WORK/fin-sondeo"
  wait "$PROBE"
  DOWN=$(cat "$WORK/caido.txt")
}

step "Dos ./ayllu upgrade a versiones buenas (una capa sobre la instalada) y el espacio que ocupan"
STORAGE_INSTALL_MB=$(storage_mb)
for version in v1 v2; do
  mkdir -p "$WORK/$version"
  printf 'FROM %s\nUSER root\nRUN echo %s >/app/version-de-prueba\nUSER 10001:10001\n' "$IMAGE" "$version" >"$WORK/$version/Dockerfile"
  podman build --pull=never --format docker -q -t "localhost/ayllu-prueba$HTTP_PORT:$version" "$WORK/$version" >/dev/null
  probe_start
  upgrade_started=$SECONDS
  LANG=es_BO.UTF-8 AYLLU_HEALTH_TIMEOUT=120 ./ayllu upgrade --image "localhost/ayllu-prueba$HTTP_PORT:$version" >"$WORK/upgrade-$version.log" 2>&1 || {
    cat "$WORK/upgrade-$version.log"
    die "la actualización a $version falló"
  }
  GOOD_UPGRADE_SECONDS=$((SECONDS - upgrade_started))
  probe_stop
  GOOD_DOWN_SECONDS=$DOWN
  grep -E "Actualizado|Upgraded" "$WORK/upgrade-$version.log"
  [ ! -f "$WORK/deploy/mantenimiento/activo" ] || die "el sitio quedó en mantenimiento"
  [ ! -f "$WORK/.actualizando" ] || die "la actualización terminada dejó .actualizando"
  podman exec "${PROJECT}_site_1" test ! -e /data/upgrade-trial || die "la versión nueva sigue a prueba"
  podman exec "${PROJECT}_site_1" cat /app/version-de-prueba | grep -q "$version" || die "no corre la versión $version"
  npx tsx tests/deploy/journey.ts check || die "después de actualizar a $version faltan datos"
  # The test's own tag goes, as a build's would: what stays is the site's :latest and :anterior.
  podman rmi "localhost/ayllu-prueba$HTTP_PORT:$version" >/dev/null
done
podman image prune -f >/dev/null
STORAGE_UPGRADES_MB=$(storage_mb)
IMAGE_MB=$((IMAGE_BYTES / 1000000))
echo "Espacio de contenedores: ${STORAGE_BEFORE_MB} MB antes de instalar, ${STORAGE_INSTALL_MB} MB instalado, ${STORAGE_UPGRADES_MB} MB tras dos actualizaciones (imagen: ${IMAGE_MB} MB)."
[ "$STORAGE_UPGRADES_MB" -le $((STORAGE_INSTALL_MB + IMAGE_MB)) ] ||
  die "tras dos actualizaciones el espacio creció más que una imagen (${STORAGE_INSTALL_MB} → ${STORAGE_UPGRADES_MB} MB)"
site_images=$(podman images --format '{{.ID}} {{.Repository}}:{{.Tag}}' | grep " localhost/ayllu-$PROJECT:" || true)
[ "$(printf '%s\n' "$site_images" | cut -d' ' -f1 | sort -u | wc -l)" -le 2 ] ||
  die "quedan más imágenes del sitio que :latest y :anterior: $site_images"
[ -z "$(podman images -q --filter dangling=true)" ] || die "quedan imágenes sin nombre tras actualizar"

step "Una actualización interrumpida mientras prueba la versión nueva: ./ayllu repair vuelve atrás"
if LANG=es_BO.UTF-8 AYLLU_INTERRUPT=prueba ./ayllu upgrade --image "$BROKEN" >"$WORK/upgrade-cortado.log" 2>&1; then
  cat "$WORK/upgrade-cortado.log"
  die "la actualización interrumpida terminó como si nada"
fi
grep -q "Actualización interrumpida: ./ayllu repair vuelve a la versión anterior." "$WORK/upgrade-cortado.log" ||
  { cat "$WORK/upgrade-cortado.log"; die "la actualización interrumpida no nombró ./ayllu repair"; }
if LANG=es_BO.UTF-8 ./ayllu upgrade --image "$IMAGE" >"$WORK/upgrade-negado.log" 2>&1; then
  die "con una actualización a medias, otra se hizo igual"
fi
grep -q "./ayllu repair" "$WORK/upgrade-negado.log" || die "la negativa no nombra ./ayllu repair: $(cat "$WORK/upgrade-negado.log")"
LANG=es_BO.UTF-8 ./ayllu repair >"$WORK/repair.log" 2>&1 || { cat "$WORK/repair.log"; die "./ayllu repair falló"; }
grep -q "volvió a la versión anterior" "$WORK/repair.log" || die "./ayllu repair no volvió atrás: $(cat "$WORK/repair.log")"
[ ! -f "$WORK/.actualizando" ] && [ ! -f "$WORK/deploy/mantenimiento/activo" ] || die "./ayllu repair dejó la actualización o el mantenimiento"
npx tsx tests/deploy/journey.ts check || die "después de ./ayllu repair faltan datos"
echo "Interrumpida mientras probaba la versión rota; ./ayllu repair volvió a la copia y a la versión anterior."

step "./ayllu upgrade a una versión rota: debe volver atrás"
probe_start
upgrade_started=$SECONDS
if LANG=es_BO.UTF-8 AYLLU_HEALTH_TIMEOUT=180 ./ayllu upgrade --image "$BROKEN_SQL" >"$WORK/upgrade.log" 2>&1; then
  cat "$WORK/upgrade.log"
  die "la actualización a la versión rota se dio por buena"
fi
UPGRADE_SECONDS=$((SECONDS - upgrade_started))
probe_stop
DOWN_SECONDS=$DOWN
grep -E "volvió|back on" "$WORK/upgrade.log" || { cat "$WORK/upgrade.log"; die "el sitio no volvió a la versión anterior"; }
cat "$WORK/upgrade.log"
grep -q "se detuvo al arrancar" "$WORK/upgrade.log" || die "la migración fallida no se notó al detenerse el sitio"
# The cause comes first: the failing statement before the last lines.
cause_line=$(grep -n -m1 "tabla_que_no_existe" "$WORK/upgrade.log" | cut -d: -f1)
last_lines=$(grep -n -m1 "Últimas líneas del sitio" "$WORK/upgrade.log" | cut -d: -f1)
[ -n "$cause_line" ] && [ "$cause_line" -lt "$last_lines" ] || die "la causa (la sentencia que falló) no se mostró primero"
ROLLBACK_SECONDS=$(sed -n 's/.*anterior en \([0-9]*\) s.*/\1/p; s/.*previous version in \([0-9]*\) s.*/\1/p' "$WORK/upgrade.log" | head -n 1)
[ ! -f "$WORK/deploy/mantenimiento/activo" ] || die "el sitio quedó en mantenimiento"
npx tsx tests/deploy/journey.ts check || die "después de volver atrás faltan datos"

step "La versión buena se niega a arrancar sobre una base migrada por una más nueva"
compose exec -T db psql -U ayllu -d postgres -q -c "create database ayllu_migrada template ayllu_antes" >/dev/null 2>&1
password=$(sed -n 's/^POSTGRES_PASSWORD=//p' "$WORK/.env")
network=$(podman network ls --format '{{.Name}}' | grep "^${PROJECT}" | head -n 1)
# As the broken version left it: its migration recorded (the data itself does not matter here).
newest=$(node -p 'Math.max(...require("./drizzle/meta/_journal.json").entries.map((e) => e.when))')
compose exec -T db psql -U ayllu -d ayllu_migrada -q -c \
  "insert into drizzle.__drizzle_migrations (hash, created_at) values ('version-rota', $((newest + 1000)))" >/dev/null
if podman run --rm --pull=never --no-healthcheck --network "$network" --env-file "$WORK/.env" \
  -e DATABASE_URL="postgres://ayllu:$password@db:5432/ayllu_migrada" -e WEB_CONCURRENCY=1 -e TRUST_PROXY=1 -e NODE_EXTRA_CA_CERTS= \
  "$IMAGE" node server.js >"$WORK/negada.log" 2>&1; then
  die "la versión buena arrancó sobre una base migrada por una más nueva"
fi
grep -q "actualizada por una versión más nueva de Ayllu" "$WORK/negada.log" || die "sin el mensaje: $(tail -n 5 "$WORK/negada.log")"
grep -m1 "actualizada por una versión más nueva" "$WORK/negada.log"
echo "Actualización buena: ${GOOD_UPGRADE_SECONDS} s, sin servicio ${GOOD_DOWN_SECONDS} s. Migración fallida: ${UPGRADE_SECONDS} s en total, la vuelta atrás ${ROLLBACK_SECONDS} s, sin servicio ${DOWN_SECONDS} s."

cat <<EOF

Prueba de despliegue: correcta en $((SECONDS - STARTED)) s.
  Imagen: $((IMAGE_BYTES / 1000000)) MB, construida en ${BUILD_SECONDS} s
  Memoria en reposo: ${MEMORY_MB} MB (cgroups), ${RSS_MB} MB PSS
  Instalación con la imagen ya construida: ${INSTALL_SECONDS} s (sitio pequeño: ${SMALL_FINISH_SECONDS} s); sin ella, más la construcción
  Reinicio simulado: el sitio respondió ${REBOOT_SECONDS} s después de podman-restart
  Espacio de contenedores: instalado ${STORAGE_INSTALL_MB} MB (antes ${STORAGE_BEFORE_MB} MB), tras dos actualizaciones ${STORAGE_UPGRADES_MB} MB
  Actualización buena: ${GOOD_UPGRADE_SECONDS} s, /healthz sin responder ${GOOD_DOWN_SECONDS} s
  Migración fallida y vuelta atrás: ${UPGRADE_SECONDS} s; vuelta atrás ${ROLLBACK_SECONDS} s; /healthz sin responder ${DOWN_SECONDS} s
EOF
