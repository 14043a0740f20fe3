import { createServer } from "node:http";
import postgres from "postgres";
import { computeDepositAddress, newOrderSalt } from "@/lib/chains/deposit-address";
import { devnetContracts, findBlockchainBySlug, findToken, listBlockchains } from "@/lib/chains/catalog";
import { serializeBlockchain } from "@/lib/chains/serialize";
import { newId } from "@/lib/ids";
import { parseAmount } from "@/lib/money/amounts";
import { createOrderBody } from "@/lib/orders/schemas";
import { sha256Hex } from "@/lib/auth/hash";

/**
 * The bare baseline, run as its own process (`node --import tsx bench/bare-server.ts <db url> <merchant id>`):
 * node:http and postgres.js, no framework. POST /api/payment-orders/ does the same validated insert as the
 * app (zod schema, wallet lookup, deposit address, INSERT: two statements). GET /api/blockchains/ checks the
 * Bearer key and counts the request in the merchant's hourly window in one statement (committed without
 * waiting for the WAL flush, as the app's), then answers the catalog. Prints its URL once it listens.
 */
const [databaseUrl, merchantIdText] = process.argv.slice(2);
const merchantId = Number(merchantIdText);
const sql = postgres(databaseUrl!, { max: 10, onnotice: () => {} });
const chain = findBlockchainBySlug("base")!;
const catalog = JSON.stringify({ success: true, data: listBlockchains().map(serializeBlockchain) });

const server = createServer((req, res) => {
  let text = "";
  req.on("data", (chunk: Buffer) => (text += chunk.toString()));
  req.on("end", async () => {
    try {
      if (req.method === "GET") {
        const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
        const windowStart = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
        const [row] = await sql`
          with k as (select k.merchant_id from api_keys k where k.key_hash = ${sha256Hex(token)} and k.revoked_at is null)
          insert into rate_limit_counters (key, window_start, count)
          select 'merchant:' || k.merchant_id, ${windowStart}, 1 from k
          on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
          returning count, set_config('synchronous_commit', 'off', true)`;
        if (!row) return res.writeHead(401, { "content-type": "application/json" }).end('{"success":false}');
        return res.writeHead(200, { "content-type": "application/json" }).end(catalog);
      }
      const body = createOrderBody.parse(JSON.parse(text));
      const token = findToken(chain, body.currency)!;
      const amount = parseAmount(body.amount, token.decimals);
      const [wallet] =
        await sql`select wallet_address, confirmation_threshold from merchant_wallets where merchant_id = ${merchantId} and blockchain_id = ${chain.id}`;
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

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  void sql.end({ timeout: 1 }).then(() => process.exit(0));
});
