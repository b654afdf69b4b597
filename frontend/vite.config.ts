import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { noDevelopmentBuilds, reactRouterProduction } from "./build-checks.ts";
import { bundleBudget } from "./bundle-budget.ts";

// The built SPA is served by the API process on the same origin, so every
// API call uses a relative /api URL; in dev the Vite server proxies it.
export default defineConfig({
  base: "/",
  // bundleBudget: prints the gzipped initial JavaScript and fails the build above 250 kB.
  // reactRouterProduction / noDevelopmentBuilds: ship react-router's production build, and fail
  // the build if any library's development build is bundled.
  plugins: [react(), reactRouterProduction(), bundleBudget(), noDevelopmentBuilds()],
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8000", changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    sourcemap: false,
    target: "es2022",
  },
});
