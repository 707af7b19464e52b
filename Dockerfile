# One image for both processes: the default command runs the api; the worker service runs
# `node dist/worker/main.js` (see docker-compose.yml).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# tsc -p tsconfig.build.json -> dist/, then the prebuilt workflow bundle -> dist/workflow-bundle.js
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# Migrations are SQL files read at run time from src/db/migrations under the package root.
COPY --from=build /app/src/db/migrations ./src/db/migrations
# Files stay root-owned and read-only to the process; the app writes nothing under /app.
USER node
EXPOSE 3000
CMD ["node", "--max-semi-space-size=64", "dist/src/api/main.js"]
