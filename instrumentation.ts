// Runs once per server process before it serves requests.
export async function register() {
  // NEXT_RUNTIME is Next's own marker, not configuration: the edge runtime has nothing to start.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/server-start");
  await startServer();
}
