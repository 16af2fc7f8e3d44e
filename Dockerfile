# syntax=docker/dockerfile:1
# One Dockerfile, one image per app: `docker build --build-arg APP=quote -t tokensvc/quote .`
# The build stage compiles the app (tools/build/build-app.ts: SWC, the options the tests run with)
# into JavaScript with source maps, only the files the app reaches, plus a package.json that lists
# only the npm packages it requires (the gateway also gets the built console, dist/console); the runtime stage installs those, production only, from the
# committed lock file. No TypeScript, no SWC, no other app, no test or devnet code in the image.
# For production pin the base images by digest (node:22-bookworm-slim@sha256:...).

# --- build: development dependencies (SWC) and the sources.
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# `npm ci` rejects this project's registry snapshot; `npm install` still honours the lockfile.
# --ignore-scripts: the `node` dev dependency's preinstall fetches a Node binary the image already has.
RUN --mount=type=cache,target=/root/.npm \
    npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.base.json ./
COPY tools/register.js ./tools/register.js
COPY tools/build ./tools/build
COPY tools/console ./tools/console
COPY libs ./libs
COPY apps ./apps
ARG APP
RUN if [ -z "$APP" ]; then \
      echo "build with --build-arg APP=<gateway|token-data|indexer|quote|status-tracker>" >&2; exit 1; \
    fi; \
    npm run contracts:build \
 && node -r ./tools/register.js tools/build/build-app.ts "$APP" --out /out \
 && if [ "$APP" = gateway ]; then \
      npm run console:build -- --out /out/dist/console; \
    fi
# The app's own production dependencies, at the versions of the root lock file.
RUN --mount=type=cache,target=/root/.npm \
    cp package-lock.json /out/ \
 && cd /out \
 && npm install --omit=dev --no-audit --no-fund --ignore-scripts \
 && rm package-lock.json
COPY deploy/docker/healthcheck.js /out/deploy/docker/healthcheck.js

# --- runtime
FROM node:22-bookworm-slim AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps zombies (Kubernetes has no --init).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
# Stack traces point into the TypeScript sources through the shipped source maps.
ENV NODE_OPTIONS=--enable-source-maps
ARG APP
ENV APP=${APP}
# Root-owned: the app cannot rewrite itself.
COPY --from=build /out /app

# The stock `node` user (uid 1000).
USER node

# Docker/compose only; Kubernetes ignores this and uses the probes in deploy/k8s.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.js"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# sh only expands $APP; exec replaces the shell so the signals tini forwards reach node.
CMD ["sh", "-c", "exec node \"apps/$APP/src/main.js\""]
