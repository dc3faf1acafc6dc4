import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { chunkOrigins } from "./scripts/chunk-origins.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), chunkOrigins()],
  resolve: { tsconfigPaths: true },
  build: { assetsInlineLimit: 0 },
});
