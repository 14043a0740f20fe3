import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("../..", import.meta.url));

// The shop integrations' end-to-end tests (.ci/medusa-e2e runs them): outside `npm test`'s suite, since
// they need Medusa installed (its own lockfile, in a cache outside the repository).
export default defineConfig({
  root,
  resolve: { alias: { "@": root, "server-only": path.join(root, "tests/helpers/server-only-stub.ts") } },
  test: {
    include: ["tests/integrations/*.e2e.ts"],
    testTimeout: 180_000,
    hookTimeout: 20 * 60_000,
    fileParallelism: false,
  },
});
