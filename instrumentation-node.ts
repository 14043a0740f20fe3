// The Node.js half of instrumentation.ts: zod's messages, then the server's startup (lib/server-start.ts).
export async function registerNode(): Promise<void> {
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
