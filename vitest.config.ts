import { defineConfig } from "vitest/config";
import path from "node:path";

// Database tests run once on in-memory PGlite and, when TEST_DATABASE_URL is set,
// again on PostgreSQL (each test file gets its own fresh database there).
const shared = {
  alias: {
    "@": path.resolve(__dirname),
    // `server-only` throws outside the react-server condition; tests are server code.
    "server-only": path.resolve(__dirname, "tests/helpers/server-only-stub.ts"),
  },
};

const backends = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

// Test files mostly wait on their child processes (hardhat, `next start`, PostgreSQL) and each has
// its own database, devnet and ports, so they run side by side: vitest's default on two cores
// (cores − 1 = one file at a time) left a core idle most of the run. TEST_MAX_WORKERS overrides.
const maxWorkers = Number(process.env.TEST_MAX_WORKERS) || 3;

export default defineConfig({
  test: {
    maxWorkers,
    projects: backends.map((backend) => ({
      resolve: shared,
      test: {
        name: backend,
        include: ["tests/**/*.test.ts"],
        // What instrumentation.ts sets up once per server process (zod's messages).
        setupFiles: ["tests/helpers/setup.ts"],
        // One devnet per worker slot, reverted to its deployment snapshot per file (tests/helpers/devnet.ts).
        globalSetup: ["tests/helpers/shared-devnets.ts"],
        env: { TEST_DB_BACKEND: backend, GATEWAY_MODE: "sandbox", NODE_ENV: "test" },
        testTimeout: 60_000,
        hookTimeout: 120_000,
        // Pure unit tests do not depend on the backend: run them in one project only.
        ...(backend === "postgres" ? { exclude: ["tests/unit/**"] } : {}),
      },
    })),
  },
});
