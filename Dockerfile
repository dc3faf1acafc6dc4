# The shop as one container image: `docker build -t reel-and-repair .`
# It runs `node server/index.ts` with APP_ENV=production and needs DATABASE_URL, PUBLIC_URL,
# AUTH_SECRET, SMTP_URL and the Stripe keys from the environment (see docs/deploy.md); no secret
# is baked in. Built for linux/amd64: the development dependencies include Node for x64.

ARG NODE_IMAGE=node:24-bookworm-slim

# Every dependency, for the build.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# The production build (build/client, build/server).
FROM deps AS build
COPY . .
RUN npm run build

# The image that runs: production dependencies, the build, and the TypeScript sources the server
# and the command-line tools run directly (Node strips the types).
FROM ${NODE_IMAGE}
ENV APP_ENV=production \
    NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Fonts for the text of drawn posters, which the shop renders itself (docs/posters.md).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-liberation fontconfig \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY app ./app
COPY server ./server
COPY scripts ./scripts
COPY drizzle ./drizzle
COPY --from=build /app/build ./build
# Uploaded posters when no S3 bucket is set: mount a volume here (or set S3_BUCKET).
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/index.ts"]
