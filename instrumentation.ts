// Runs once per server process before it serves requests.
export async function register() {
  // NEXT_RUNTIME is Next's own marker, not configuration: the edge runtime has nothing to start.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    const { startServer } = await import("@/lib/server-start");
    await startServer();
  } catch (error) {
    // An invalid environment makes lib/env.ts throw on import; Next would log it and keep serving 500s.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
