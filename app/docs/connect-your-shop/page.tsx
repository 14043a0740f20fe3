import type { Metadata } from "next";
import Link from "next/link";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Connect your shop" };

// /docs/connect-your-shop – the recipe every shop integration follows, and the Medusa plugin
export default function ConnectYourShopPage() {
  return (
    <main className={styles.guide}>
      <h1>Connect your shop</h1>
      <p className={styles.lead}>
        A shop takes a payment in four steps: create the payment order when the customer checks out, send the customer to pay, mark the shop&apos;s order on the
        signed webhooks, and refund through the API. Medusa has a ready plugin; any other shop (WooCommerce, Shopify, PrestaShop, your own) follows the same
        recipe.
      </p>

      <h2>Medusa</h2>
      <p>
        The <code>@payment-gateway/medusa</code> plugin (in this repository under <code>integrations/medusa</code>, with its README) is a Medusa v2 payment
        provider. The customer&apos;s order is placed awaiting payment, marked paid when <code>payment.confirmed</code> arrives, canceled when the payment
        expires or fails, and refunds made in Medusa&apos;s admin become gateway refunds.
      </p>
      <ol>
        <li>
          In the gateway: a receiving wallet per chain, an API key with the <code>create_payments</code> preset, and a webhook endpoint at{" "}
          <code>https://&lt;your-medusa&gt;/hooks/payment/gateway_crypto</code> (keep its secret).
        </li>
        <li>
          <code>npm install @payment-gateway/medusa</code>, then in <code>medusa-config.ts</code> the plugin and the provider:
        </li>
      </ol>
      <Code label="medusa-config.ts">{`
plugins: [{ resolve: "@payment-gateway/medusa", options: {} }],
modules: [
  {
    resolve: "@medusajs/medusa/payment",
    options: {
      providers: [
        {
          resolve: "@payment-gateway/medusa/providers/gateway",
          id: "crypto",
          options: {
            gatewayUrl: "http://localhost:3000",
            apiKey: process.env.GATEWAY_API_KEY,             // sk_test_… / sk_live_…
            webhookSecret: process.env.GATEWAY_WEBHOOK_SECRET, // whsec_…
            blockchain: "base",
            currency: "USDC",
            paymentWindowMinutes: 30,
            redirectUrl: "https://shop.example.com/order/confirmed",
          },
        },
      ],
    },
  },
],
`}</Code>
      <ol start={3}>
        <li>
          Enable <code>pp_gateway_crypto</code> in the regions that may pay with it. At checkout the payment session&apos;s <code>data</code> carries{" "}
          <code>payment_url</code> (redirect the customer there after placing the order) and <code>methods</code> (each accepted chain and token with its amount
          and deposit address, for a checkout of your own).
        </li>
      </ol>
      <p>
        The plugin is tested end to end against a real Medusa store and this gateway&apos;s sandbox: a cart checked out and paid on the devnet, the order marked
        paid by the webhook, replayed and forged webhooks ignored, orders canceled when their payment expires or fails, refunds from Medusa&apos;s admin
        reaching the gateway.
      </p>

      <h2>The recipe, for any shop</h2>

      <h3>1. Create the order, with an idempotency key</h3>
      <p>
        When the customer chooses to pay with crypto, create a payment order priced in the cart&apos;s currency: the gateway converts it into the token at a
        rate read from on-chain price feeds and locks it for the order&apos;s lifetime (<Link href="/docs/pricing">fiat pricing</Link>). Send an{" "}
        <code>Idempotency-Key</code> made from your payment attempt (e.g. your order id plus a counter), and keep your ids in <code>order_info</code>.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders/ \\
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: shop-order-1042-attempt-1' \\
  -d '{"price_amount":"19.90","price_currency":"USD","currency":"USDC","blockchain":"base",
       "order_info":"{\\"shop_order\\":1042}","nonce":1042,
       "redirect_url":"https://shop.example.com/orders/1042","expires_at":"2030-01-01T12:30:00Z"}'
`}</Code>
      <p>
        A timeout or a 5xx: send the same request with the same key; you get the first answer back (<code>Idempotent-Replayed: true</code>), never a second
        order. The <code>nonce</code> (unique per merchant) is a second guard: a reused one answers <code>DUPLICATE_NONCE</code>, and{" "}
        <code>GET /api/payment-orders/?nonce=1042</code> finds the order it made.
      </p>

      <h3>2. Send the customer to pay</h3>
      <p>
        Redirect to <code>payment_url</code>, the hosted payment page (QR code, browser and phone wallets, a choice of the accepted chains and tokens). Or show
        it yourself: <code>accepted_methods</code> lists every way the order can be paid, each with its <code>amount</code> and <code>receiving_address</code>.
        Mark your order &quot;awaiting payment&quot; and hold its stock until the order settles.
      </p>

      <h3>3. Mark your order on the webhooks</h3>
      <p>
        Create a webhook endpoint (<code>POST /api/webhook-endpoints/</code>) at your shop and keep its secret. For every delivery:
      </p>
      <ol>
        <li>
          Verify both signatures on the <strong>raw body</strong> and refuse a <code>webhook-timestamp</code> more than five minutes off (
          <Link href="/docs/webhooks">Webhooks</Link> has the code). Refuse anything that fails, and change nothing.
        </li>
        <li>
          Answer 2xx at once; do the work after. Ignore a <code>webhook-id</code> you already handled (delivery is at least once).
        </li>
        <li>
          Read the order back (<code>GET /api/payment-orders/{"{order_id}"}/</code>) and act on its <code>status</code> now, not on the event alone: a retry can
          overtake a newer event, and reading back means a replayed or out-of-order event can only repeat the current step.
        </li>
      </ol>
      <table>
        <thead>
          <tr>
            <th>Gateway order</th>
            <th>Your order</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>pending</code>
            </td>
            <td>awaiting payment</td>
          </tr>
          <tr>
            <td>
              <code>processing</code> (<code>payment.pending</code>)
            </td>
            <td>payment seen, waiting for confirmations: do not ship yet</td>
          </tr>
          <tr>
            <td>
              <code>confirmed</code> (<code>payment.confirmed</code>)
            </td>
            <td>paid: fulfil it. Never move a paid order back</td>
          </tr>
          <tr>
            <td>
              <code>expired</code> (<code>payment.expired</code>)
            </td>
            <td>canceled: release the stock</td>
          </tr>
          <tr>
            <td>
              <code>failed</code> (<code>payment.failed</code>)
            </td>
            <td>
              canceled; an <code>underpaid</code> or <code>late_payment</code> order holds the customer&apos;s money: refund it (step 4)
            </td>
          </tr>
        </tbody>
      </table>
      <Note>
        A customer may pay and never come back to your shop. Act on the webhook, not on the return to <code>redirect_url</code>: if your shop creates its order
        only after payment, create it from the webhook.
      </Note>

      <h3>4. Refund</h3>
      <p>
        <code>POST /api/payment-orders/{"{order_id}"}/refunds/</code> with an <code>Idempotency-Key</code>, the <code>amount</code> in the token (for a partial
        refund of a fiat price: the same share of the order&apos;s <code>amount</code>; omit it to refund everything left) and <code>to_address</code>: the{" "}
        <code>refund_address</code> the customer left on the payment page, else the wallet that paid (<code>from_address</code> of{" "}
        <code>GET /api/transactions/{"{transaction_hash}"}/</code>).
      </p>
      <Note>
        A customer who paid from an exchange account cannot sign with the paying wallet, and the paying address is the exchange&apos;s, not theirs: do not
        refund to it. The payment page offers them a one-time link, e-mailed to the address they gave while the payment was due, to leave their own address (
        <code>refund_address_source</code>: <code>email_link</code>). Without one, an owner or admin who spoke with them enters it on the order page, or with{" "}
        <code>PUT /api/payment-orders/{"{order_id}"}/refund-address/</code> and a fresh <code>reauth</code> (a login, not an API key); it is in the audit log.
        The payment page shows your support contact (Settings › Branding) so the customer can reach you.
      </Note>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders/ORD-…/refunds/ \\
  -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' \\
  -H 'Idempotency-Key: shop-refund-77' \\
  -d '{"amount":"5.02","to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","reason":"returned item"}'
`}</Code>
      <p>
        The gateway never holds funds: the answer&apos;s <code>transaction</code> is the transfer to sign with your wallet (the dashboard&apos;s order page has
        a button for it). The refund reads <code>pending</code> once the transfer is seen and <code>confirmed</code> with a <code>refund.confirmed</code>{" "}
        webhook.
      </p>

      <h2>An example</h2>
      <p>
        <code>examples/merchant-backend</code> in the repository is a small shop backend built on this recipe with the typed client: checkout with an
        idempotency key and a fiat price, webhooks verified, de-duplicated and read back, and refunds.
      </p>
    </main>
  );
}
