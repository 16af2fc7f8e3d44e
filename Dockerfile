# syntax=docker/dockerfile:1
# One Dockerfile for all five apps: `docker build --build-arg APP=quote -t tokensvc/quote .`
# Apps run from their TypeScript sources through tools/register.js (SWC), exactly as in
# development, so there is no compile stage: the image is node_modules + sources.
# For production pin the base image by digest (node:20-bookworm-slim@sha256:...).

# --- deps: production node_modules only (@swc/core and source-map-support are runtime dependencies).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` rejects this project's registry snapshot; `npm install` still honours the lockfile.
RUN --mount=type=cache,target=/root/.npm \
    npm install --omit=dev --no-audit --no-fund

# --- runtime
FROM node:20-bookworm-slim AS runtime
# tini as PID 1 forwards SIGTERM to node and reaps zombies (Kubernetes has no --init).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY tools/register.js ./tools/register.js
COPY libs ./libs
COPY apps ./apps
COPY deploy/docker/healthcheck.js ./deploy/docker/healthcheck.js
# Transpiled once here, into node_modules/.cache (root-owned at run time): each start then loads
# the cached output and neither SWC nor TypeScript.
RUN node tools/register.js --warm apps libs

# APP comes last so the five images share every layer above; only this one differs.
ARG APP
RUN if [ -z "$APP" ]; then \
      echo "build with --build-arg APP=<gateway|token-data|indexer|quote|status-tracker>" >&2; exit 1; \
    fi; \
    if [ ! -f "apps/$APP/src/main.ts" ]; then \
      echo "APP=$APP: apps/$APP/src/main.ts does not exist" >&2; exit 1; \
    fi
ENV APP=${APP}

# The stock `node` user (uid 1000). Sources stay root-owned, so the app cannot rewrite
# itself (nor its transpile cache, filled above).
USER node

# Docker/compose only; Kubernetes ignores this and uses the probes in deploy/k8s.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.js"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# sh only expands $APP; exec replaces the shell so the signals tini forwards reach node.
CMD ["sh", "-c", "exec node -r ./tools/register.js \"apps/$APP/src/main.ts\""]
