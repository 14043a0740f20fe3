/**
 * Runs the example merchant backend against a gateway (default: npm run dev on localhost:3000).
 *   GATEWAY_API_KEY=sk_test_… WEBHOOK_SECRET=whsec_… npx tsx examples/merchant-backend/main.ts
 * With --pay it also creates an order, pays it with the sandbox tools and waits for payment.confirmed.
 */
import { unwrap } from "../../lib/client";
import { gatewayClient } from "./create-order";
import { startMerchantBackend } from "./server";

async function main() {
  const gatewayUrl = process.env.GATEWAY_URL ?? "http://localhost:3000";
  const apiKey = process.env.GATEWAY_API_KEY;
  const secrets = (process.env.WEBHOOK_SECRET ?? "").split(",").filter(Boolean);
  if (!apiKey || secrets.length === 0) {
    console.error("Set GATEWAY_API_KEY (sk_test_…, with create_payments) and WEBHOOK_SECRET (whsec_…); see examples/merchant-backend/README.md.");
    process.exit(2);
  }
  const gateway = gatewayClient(gatewayUrl, apiKey);
  const backend = await startMerchantBackend({ gateway, webhookSecrets: secrets, port: Number(process.env.PORT ?? 4000) });
  console.log(`merchant backend on ${backend.url}: webhooks at ${backend.url}/webhooks, POST ${backend.url}/checkout to create an order`);

  if (process.argv.includes("--pay")) {
    // The customer checks out a 10.50 USD cart, paid in USDC on base.
    const checkout = await fetch(`${backend.url}/checkout`, {
      method: "POST",
      body: JSON.stringify({
        price: "10.50",
        price_currency: "USD",
        items: [{ sku: "WIDGET-1", qty: 1 }],
        ...(process.argv.includes("--order-webhook") ? { webhook_url: `${backend.url}/webhooks` } : {}),
      }),
    });
    const order = (await checkout.json()) as { order_id: string; payment_url: string };
    console.log(`created ${order.order_id} (${order.payment_url}); paying it on the sandbox devnet…`);
    unwrap(await gateway.POST("/api/sandbox/payment-orders/{orderId}/pay", { params: { path: { orderId: order.order_id } }, body: {} }));
    unwrap(await gateway.POST("/api/sandbox/mine", { body: { blocks: 3, blockchain: "base" } }));
    const confirmed = await backend.waitFor("payment.confirmed", order.order_id, 120_000);
    console.log(`confirmed: ${confirmed.data.order_id}, tx ${confirmed.data.transaction?.transaction_hash}; shop order ${backend.orders.get(order.order_id)}`);
    await backend.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
