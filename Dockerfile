# The service as a container: the compiled build on Node.js 20, run as the image's non-root user,
# with its data (the DuckDB file and the tokens) in the /data volume. Without data it builds the
# demo there on first start; `serve` (with --db or --engine postgres) serves data loaded beforehand.
# deploy/check-image.sh runs this file's steps and its entry command without a Docker daemon.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the engine's native binary ships in its package, and the build is run below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    VESSEL_EVENTS_HOST=0.0.0.0 \
    VESSEL_EVENTS_PORT=8080 \
    VESSEL_EVENTS_DB=/data/events.duckdb \
    VESSEL_EVENTS_TOKENS=/data/tokens.json
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY explorer ./explorer
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/vessel-events.js"]
CMD ["start"]
