# syntax=docker/dockerfile:1

# ---- build: all dependencies, compile the server, bundle the client ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json vite.config.ts ./
COPY shared ./shared
COPY server ./server
COPY client ./client
COPY segments ./segments
RUN npm run build

# ---- runtime: production dependencies only, non-root ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SEGMENT_DRAFTS_DIR=/data/segment-drafts
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build --chown=node:node /app/segments ./segments
RUN mkdir -p /data && chown node:node /data
USER node
# Catalog, generated on first start when absent, the studio's drafts, published segment versions (without
# DATABASE_URL) and anything else the server keeps. The image's segments/ seed the first version; the server
# (as node) rewrites them to each version it serves, so they are its own.
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
