import { fileURLToPath, URL } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./build/precompress";

const apiTarget = process.env.CHAINLAUNCH_API ?? "http://127.0.0.1:8100";

/** Dev server proxies the API (and its websocket) to a locally running `chainlaunch serve`. */
export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: apiTarget, ws: true, changeOrigin: false },
      "/healthz": { target: apiTarget },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // The editor screen loads Monaco (~3.2 MB, 0.8 MB gzip) on its own, only when opened.
    chunkSizeWarningLimit: 3500,
  },
});
