# billing-sim as a container, for teams whose CI starts services as containers:
#   docker build -t billing-sim . && docker run -p 4010:4010 billing-sim
# The simulator listens on 0.0.0.0:4010 inside; every flag comes from BILLING_SIM_* (docs/containers.md).
# Mount a volume at /data to keep state across restarts (scripts/container-entrypoint.sh).
#
# Node 22: better-sqlite3 12, the durable store behind --data, aborts on Node >= 24.19 (docs/development.md), and 22 is an LTS.

FROM node:22-bookworm AS build
WORKDIR /app
# swagger-ui-dist depends on @scarf/scarf, whose install script would report usage; say no.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# Install scripts off (`prepare` would build before the sources are here); the two packages that need theirs
# (better-sqlite3's native addon, esbuild's binary) run them next. A layer that changes only with the lock file.
RUN npm ci --no-audit --no-fund --ignore-scripts && npm rebuild better-sqlite3 esbuild
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    BILLING_SIM_HOST=0.0.0.0 \
    BILLING_SIM_PORT=4010 \
    BILLING_SIM_ALLOWED_HOST=*
WORKDIR /app
# Only what runs: the compiled CLI and its production dependencies, owned by root and read by the `node` user.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY scripts/container-entrypoint.sh /usr/local/bin/billing-sim
USER node
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.BILLING_SIM_PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["billing-sim"]
CMD ["serve"]
