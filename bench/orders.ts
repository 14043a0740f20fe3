import { createServer, type Server } from "node:http";
import autocannon from "autocannon";
import postgres from "postgres";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import { devnetContracts, findBlockchainBySlug, findToken } from "@/lib/chains/catalog";
import { newId } from "@/lib/ids";
import { parseAmount } from "@/lib/orders/amounts";
import { createOrderBody } from "@/lib/orders/schemas";
import { createBenchDatabase, ensureProductionBuild, fmt, startNextServer } from "./support";

const connections = 32;
const durationSeconds = 10;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function hammer(url: string, headers: Record<string, string>, firstNonce: number): Promise<Figures> {
  let nonce = firstNonce;
  const result = await autocannon({
    url: `${url}/api/payment-orders/`,
    connections,
    duration: durationSeconds,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ amount: "10.5", currency: "USDC", blockchain: "base", order_info: '{"sku":"A1"}', nonce: nonce++ }),
        }),
      },
    ],
  });
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

/**
 * The same validated insert with nothing around it: node:http, the route's zod schema, the
 * wallet lookup, the deposit address and one INSERT through postgres.js.
 */
function bareServer(sql: postgres.Sql, merchantId: number): Server {
  const chain = findBlockchainBySlug("base")!;
  return createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", async () => {
      try {
        const body = createOrderBody.parse(JSON.parse(text));
        const token = findToken(chain, body.currency)!;
        const amount = parseAmount(body.amount, token.decimals);
        const [wallet] = await sql`select wallet_address, confirmation_threshold from merchant_wallets where merchant_id = ${merchantId} and blockchain_id = ${chain.id}`;
        const salt = newOrderSalt();
        const now = new Date();
        const [row] = await sql`
          insert into payment_orders (order_id, merchant_id, nonce, blockchain_id, currency, token_address, decimals, amount, amount_received, status,
            receiving_address, deposit_destination, deposit_salt, deposit_factory, order_info, confirmation_threshold, expires_at, created_at, updated_at)
          values (${newId("order")}, ${merchantId}, ${body.nonce}, ${chain.id}, ${token.symbol}, ${token.address}, ${token.decimals}, ${amount.toString()}, '0', 'pending',
            ${computeDepositAddress({ factory: devnetContracts.factory, implementation: devnetContracts.implementation, destination: wallet!.wallet_address, salt })},
            ${wallet!.wallet_address}, ${salt}, ${devnetContracts.factory}, ${String(body.order_info)}, ${wallet!.confirmation_threshold},
            ${new Date(now.getTime() + 30 * 60_000)}, ${now}, ${now})
          returning id, order_id`;
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ success: true, data: row }));
      } catch (error) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error: String(error) }));
      }
    });
  });
}

/** Order creation on PostgreSQL: the production build under autocannon vs a bare node:http server doing the same insert. */
export async function runOrdersBench(): Promise<void> {
  await ensureProductionBuild();
  const database = await createBenchDatabase("orders");
  const server = await startNextServer({
    DATABASE_URL: database.url,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    GATEWAY_MODE: "sandbox",
    JOBS_DRIVER: "none",
    DEVNET: "off",
    LOG_LEVEL: "silent",
    RATE_LIMIT_STANDARD_PER_HOUR: "100000000",
  });
  const sql = postgres(database.url, { max: 10, onnotice: () => {} });
  let bare: Server | undefined;
  try {
    const post = async <T = unknown>(path: string, body: unknown, token?: string): Promise<T> => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as T;
    };
    const account = { username: "orderbench", email: "orders@example.com", password: "bench-password", shop_name: "Bench" };
    await post("/api/auth/register", account);
    const { access, user } = await post<{ access: string; user: { id: number } }>("/api/auth/login", account);
    await post("/api/merchant-wallets/", { blockchain: 2, wallet_address: "0x000000000000000000000000000000000000bEEF", confirmation_threshold: 1 }, access);
    const key = (await post<{ data: { key: string } }>("/api/api-keys/", { name: "bench", preset: "create_payments" }, access)).data.key;

    await hammer(server.url, { authorization: `Bearer ${key}` }, 1); // warm-up (JIT, connection pool)
    const app = await hammer(server.url, { authorization: `Bearer ${key}` }, 10_000_000);

    bare = bareServer(sql, user.id);
    await new Promise<void>((resolve) => bare!.listen(0, "127.0.0.1", resolve));
    const address = bare.address();
    const bareUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    await hammer(bareUrl, {}, 20_000_000);
    const baseline = await hammer(bareUrl, {}, 30_000_000);

    console.log(`\n## Order creation (POST /api/payment-orders/, PostgreSQL, autocannon ${connections} connections, ${durationSeconds} s)`);
    console.log(`next start (API key auth, rate limit, validation, envelope): ${fmt(app.requestsPerSecond, 0)} req/s  p50 ${app.p50} ms  p99 ${app.p99} ms  non-2xx ${app.non2xx}`);
    console.log(`bare node:http + postgres.js (same validated insert):      ${fmt(baseline.requestsPerSecond, 0)} req/s  p50 ${baseline.p50} ms  p99 ${baseline.p99} ms  non-2xx ${baseline.non2xx}`);
    console.log(`throughput ratio app/bare: ${fmt(app.requestsPerSecond / baseline.requestsPerSecond)} (target ≥ 0.5); app p99 target < 50 ms`);
  } finally {
    await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
    await sql.end();
    await server.stop();
    await database.close();
  }
}
