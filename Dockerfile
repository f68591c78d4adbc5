# The production image (docs/instalar.md, docs/decisions/035-production-image.md): built from the
# repository, production dependencies only, on Node 24 LTS, run by a fixed non-root user, every
# piece of state under the one volume /data.
#   podman build --format docker -t ayllu .      (or docker build -t ayllu .)

FROM node:24-bookworm-slim AS build
# Behind a proxy that inspects TLS, its CA for npm (with podman build, -v to mount the file).
ARG NODE_EXTRA_CA_CERTS
# Node without its symbol table (16 MB of names for debuggers; the dynamic symbols that native
# modules such as sharp link against stay): the image stays well under 300 MB as Node 24 grows.
# Before the sources, so that a change of them does not ask Debian's mirrors again.
RUN apt-get update && apt-get install -y --no-install-recommends binutils \
 && strip /usr/local/bin/node && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the native parts (sharp, esbuild) come as prebuilt optional packages.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# Then only what runs: no development packages, no TypeScript (an optional peer of React Router's
# packages, used by its build only), no type declarations or TypeScript sources (Node never loads
# them from node_modules), no source maps or READMEs, none of PDFKit's bundles for browsers
# (Node loads js/pdfkit.js or js/pdfkit.node.mjs), and of PDFium (decision 061) only what the
# receipts' worker loads: dist/index.cjs and dist/pdfium.wasm.
RUN npm run build \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/@types \
 && find node_modules -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.tsx' \
      -o -name '*.map' -o -name '*.md' -o -name '*.markdown' \) -delete \
 && rm -f node_modules/pdfkit/js/pdfkit.browser*.*js node_modules/pdfkit/js/pdfkit.standalone.js \
      node_modules/pdfkit/js/pdfkit.old.js \
 && find node_modules/@hyzyla/pdfium/dist -maxdepth 1 -type f ! -name index.cjs ! -name pdfium.wasm \
      -delete \
 && rm -rf node_modules/@hyzyla/pdfium/dist/vendor node_modules/@hyzyla/pdfium/dist/worker \
 && node -e 'require("sharp"); require("pdfkit"); import("@electric-sql/pglite"); \
      require("@hyzyla/pdfium").PDFiumLibrary.init().then((l) => l.destroy())'

# Only Node itself from the build image: no npm, no yarn, no compiler in what runs.
FROM debian:bookworm-slim
# The commit it was built from, for the admins' Diagnóstico page (./ayllu passes it).
ARG SOURCE_COMMIT=""
COPY --from=build /usr/local/bin/node /usr/local/bin/node
RUN groupadd --gid 10001 ayllu \
 && useradd --uid 10001 --gid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin ayllu \
 && mkdir -p /data && chown 10001:10001 /data
WORKDIR /app
COPY --from=build /app/package.json /app/server.js /app/cli.js ./
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/app/styles/tokens.css ./app/styles/tokens.css
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    AYLLU_COMMIT=$SOURCE_COMMIT
USER 10001:10001
VOLUME /data
EXPOSE 3000
# The orchestrator's check; SIGTERM (the default stop signal) lets requests finish first.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server.js"]
