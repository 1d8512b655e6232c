import { fileURLToPath, URL } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  // The timeout guards against hangs, not speed: CI runs this tier beside two others at load 5 to 10.
  test: { environment: "node", include: ["src/**/*.test.{ts,tsx}", "build/**/*.test.ts"], testTimeout: 20_000 },
});
