import autocannon from "autocannon";

/**
 * The load generator, run as its own process (`node --import tsx bench/load.ts '<json>'`) so it
 * does not share an event loop with the servers it measures. Prints one JSON line of figures.
 */
interface LoadSpec {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  /** POST: an order body is sent with a fresh nonce per request, counting up from here. */
  firstNonce?: number;
  connections: number;
  durationSeconds: number;
  /** Open loop: offered requests per second across all connections. */
  overallRate?: number;
}

async function main() {
  const spec = JSON.parse(process.argv[2]!) as LoadSpec;
  let nonce = spec.firstNonce ?? 1;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    requests: [
      {
        method: spec.method,
        headers: { ...(spec.method === "POST" ? { "content-type": "application/json" } : {}), ...spec.headers },
        ...(spec.method === "POST"
          ? {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                body: JSON.stringify({ amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce: nonce++ }),
              }),
            }
          : {}),
      },
    ],
  });
  process.stdout.write(
    JSON.stringify({
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      total: result.requests.total,
    }) + "\n",
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
