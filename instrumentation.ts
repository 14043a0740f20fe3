// Runs once per server process before it serves requests.
export async function register() {
  // NEXT_RUNTIME is Next's own marker, not configuration: the edge runtime has nothing to start.
  // The import stays inside this condition so the edge bundle drops it (and its process.exit,
  // which Next would flag there as a Node.js API the Edge Runtime lacks).
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./instrumentation-node");
    await registerNode();
  }
}
