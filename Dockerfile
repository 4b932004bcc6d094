# learnables-triage: the e-mail triage A2A agent with its embedded authority.
#   docker build -t learnables-triage .
#   docker run -p 8080:8080 -v triage-data:/app/data learnables-triage
# The first start creates the demo tenant and prints a token for it once (also written to
# /app/data, readable only by the `node` user). More tokens:
#   docker exec <container> npx learnables-triage tokens create --tenant demo --principal dana@warehouse.example --kind person --roles read,teach

# ---- build: compile the native modules (re2, better-sqlite3) with a toolchain the runtime never carries
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Runtime dependencies only: the server runs its TypeScript through tsx, which is one of them
# (`npm start` = `node --import tsx src/main.ts`), so nothing is compiled ahead of time.
# Both native modules compile from source here, for this image's Node, rather than fetching prebuilt
# binaries: DEVELOPMENT_SKIP_GETTING_ASSET for re2, npm_config_build_from_source for better-sqlite3.
RUN DEVELOPMENT_SKIP_GETTING_ASSET=1 npm_config_build_from_source=true npm ci --omit=dev --no-audit --no-fund \
 && node -e "require('re2'); require('better-sqlite3')" \
 && npm cache clean --force

# ---- console: the operator console's bundle (console/ -> console/dist) with Vite, a dev dependency;
# no native module is needed for it, so install scripts are skipped
FROM node:24-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY console ./console
COPY scripts/build-console.ts ./scripts/
RUN node --import tsx scripts/build-console.ts

# ---- runtime: no compiler, not root
FROM node:24-bookworm-slim AS runtime
# glibc malloc tuned for large mail (issue 16, docs/memory.md): a fixed mmap threshold sends every
# buffer of 128 KiB or more (a mail, its base64, a task row) to its own mapping, returned to the
# system when freed, instead of the heap the default's sliding threshold grows and never shrinks;
# two arenas instead of eight per core. Measured by soak/memory.ts.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/app/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json package-lock.json tsconfig.json ./
COPY --chown=root:root src ./src
COPY --from=console --chown=root:root /app/console/dist ./console/dist
COPY --chown=root:root fixtures/directory ./fixtures/directory
RUN mkdir -p /app/data && chown node:node /app/data \
 && printf '#!/bin/sh\nexec node --import tsx /app/src/cli/main.ts "$@"\n' > /usr/local/bin/learnables-triage \
 && chmod 0755 /usr/local/bin/learnables-triage
USER node
VOLUME /app/data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "src/main.ts"]
