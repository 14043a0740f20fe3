import { Agent, request } from "node:http";
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
  /** Several credentials (e.g. one API key per merchant): each connection takes them in turn, request by request. */
  headersList?: Array<Record<string, string>>;
  connections: number;
  durationSeconds: number;
  /**
   * Open loop: requests per second sent on a fixed schedule whether or not earlier ones were
   * answered, each timed from when it was due (so a stall shows up in every request it delays).
   * autocannon's own `overallRate` is not this: each connection sends back to back until it has
   * made its share for the second, then waits, so a second starts with a burst.
   */
  openLoopRate?: number;
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

const orderBody = (nonce: number) => JSON.stringify({ amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce });

async function closedLoop(spec: LoadSpec): Promise<Figures> {
  let nonce = spec.firstNonce ?? 1;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    requests: (spec.headersList ?? [spec.headers ?? {}]).map((headers) => ({
      method: spec.method,
      headers: { ...(spec.method === "POST" ? { "content-type": "application/json" } : {}), ...headers },
      ...(spec.method === "POST" ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: orderBody(nonce++) }) } : {}),
    })),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

async function openLoop(spec: LoadSpec & { openLoopRate: number }): Promise<Figures> {
  const url = new URL(spec.url);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const count = Math.round(spec.openLoopRate * spec.durationSeconds);
  const intervalMs = 1000 / spec.openLoopRate;
  const latencies: number[] = [];
  let nonce = spec.firstNonce ?? 1;
  let non2xx = 0;
  let errors = 0;

  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const body = spec.method === "POST" ? orderBody(nonce++) : undefined;
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: spec.method,
          headers: { ...(body ? { "content-type": "application/json" } : {}), ...spec.headers },
        },
        (res) => {
          res.resume();
          res.on("end", () => {
            latencies.push(performance.now() - due);
            if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(body);
    });

  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(due));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? NaN);
  return { requestsPerSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), non2xx, errors, total: latencies.length };
}

async function main() {
  const spec = JSON.parse(process.argv[2]!) as LoadSpec;
  const figures = spec.openLoopRate ? await openLoop({ ...spec, openLoopRate: spec.openLoopRate }) : await closedLoop(spec);
  process.stdout.write(JSON.stringify(figures) + "\n");
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
