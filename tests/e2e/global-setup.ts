/** Builds the app into .next-e2e and starts it with its own devnet; the returned function stops everything. */
import { buildApp, startAppServer } from "./app-server";

export default async function globalSetup() {
  // E2E_REUSE_BUILD=1 keeps an existing .next-e2e build (iterating on the tests only).
  buildApp(".next-e2e", { reuse: process.env.E2E_REUSE_BUILD === "1" });
  const server = await startAppServer({ distDir: ".next-e2e", devnet: true });
  process.env.PAY_E2E_BASE_URL = server.baseUrl;
  return server.stop;
}
