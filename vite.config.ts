import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { chunkOrigins } from "./scripts/chunk-origins.ts";
import { shellChunks } from "./scripts/shell-chunk.ts";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter(), chunkOrigins()],
  resolve: { tsconfigPaths: true },
  build: {
    assetsInlineLimit: 0,
    ...(isSsrBuild
      ? {}
      : {
          rolldownOptions: {
            output: { codeSplitting: { groups: shellChunks(path.resolve("app/root.tsx")) } },
          },
        }),
  },
}));
