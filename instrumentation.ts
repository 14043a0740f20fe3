// Runs once per server process before it serves requests.
export async function register() {
  // NEXT_RUNTIME is Next's own marker, not configuration: the edge runtime has nothing to start.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  try {
    // zod's messages for every route and action this process serves (lib/http/zod-messages.ts).
    const { configureZodMessages } = await import("@/lib/http/zod-messages");
    configureZodMessages();
    const { startServer } = await import("@/lib/server-start");
    await startServer();
  } catch (error) {
    // An invalid environment makes lib/env.ts throw on import; Next would log it and keep serving 500s.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
