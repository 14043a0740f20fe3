import type { Metadata } from "next";
import Link from "next/link";
import { BaseUrl, Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Quick start" };

// /docs/quick-start – from a new account to a paid sandbox order
export default function QuickStartPage() {
  return (
    <main className={styles.guide}>
      <h1>Quick start</h1>
      <p className={styles.lead}>
        From a new account to a confirmed test payment in seven requests. Every example runs as written against this instance, <BaseUrl /> (in sandbox mode: a
        local devnet, test tokens and sandbox tools); each code block has a Copy button.
      </p>
      <Note>
        Paths work with and without a trailing slash. Send JSON with <code>Content-Type: application/json</code>. Amounts are decimal strings, never numbers.
        The full contract of every operation is in the <Link href="/docs">API reference</Link>.
      </Note>

      <h2>1. Register and log in</h2>
      <Code>{`
curl -s http://localhost:3000/api/auth/register \\
  -H 'Content-Type: application/json' \\
  -d '{"username":"acme","email":"dev@acme.test","password":"correct horse battery","shop_name":"Acme Widgets"}'
`}</Code>
      <p>
        <code>201 Created</code>, a bare object (the auth endpoints use no envelope). Keep <code>webhook_secret</code>: it signs webhooks sent to a per-order{" "}
        <code>webhook_url</code>.
      </p>
      <Code>{`
{
  "user": { "id": 1, "username": "acme", "email": "dev@acme.test", "shop_name": "Acme Widgets" },
  "webhook_secret": "whsec_q0Zy8Xv2ZbE4Yx0f2m0lM7nB6tq4cJv9rW1kS3dE5hA="
}
`}</Code>
      <Code>{`
curl -s http://localhost:3000/api/auth/login \\
  -H 'Content-Type: application/json' \\
  -d '{"username":"acme","password":"correct horse battery"}'
`}</Code>
      <Code>{`
{
  "access": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…",
  "refresh": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9…",
  "user": { "id": 1, "username": "acme", "email": "dev@acme.test" }
}
`}</Code>
      <p>
        The access token lasts 24 hours and carries every permission; refresh it with <code>POST /api/auth/token/refresh</code>{" "}
        <code>{`{"refresh": "…"}`}</code>, which returns a new pair (each refresh token works once). Below, <code>$ACCESS</code> is the access token.
      </p>

      <h2>2. Add a receiving wallet</h2>
      <p>
        Payments end up in your wallet: one per blockchain. Wallets take the numeric blockchain id from <code>GET /api/blockchains/</code> (orders take the
        slug).
      </p>
      <Code>{`
curl -s http://localhost:3000/api/merchant-wallets \\
  -H "Authorization: Bearer $ACCESS" -H 'Content-Type: application/json' \\
  -d '{"blockchain":2,"wallet_address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"}'
`}</Code>
      <Code>{`
{
  "success": true,
  "data": {
    "id": 1,
    "blockchain": 2,
    "blockchain_slug": "base",
    "wallet_address": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    "confirmation_threshold": 3,
    "is_active": true,
    "created_at": "2030-01-01T12:00:00.000Z",
    "updated_at": "2030-01-01T12:00:00.000Z"
  },
  "message": "Created",
  "timestamp": "2030-01-01T12:00:00.000Z"
}
`}</Code>

      <h2>3. Create an API key for your backend</h2>
      <p>
        Your backend should not hold your password or login tokens. Create a key with only what it needs: the <code>create_payments</code> preset gives{" "}
        <code>read</code> and <code>create_payments</code>. API keys are managed with a login only.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/api-keys \\
  -H "Authorization: Bearer $ACCESS" -H 'Content-Type: application/json' \\
  -d '{"name":"checkout backend","preset":"create_payments"}'
`}</Code>
      <Code>{`
{
  "success": true,
  "data": {
    "id": 1,
    "name": "checkout backend",
    "prefix": "sk_test_4fQ",
    "permissions": ["read", "create_payments"],
    "expires_at": null,
    "last_used_at": null,
    "created_at": "2030-01-01T12:00:00.000Z",
    "revoked": false,
    "revoked_at": null,
    "key": "sk_test_4fQ…"
  },
  "message": "API key created. Store the key now: it will not be shown again.",
  "timestamp": "2030-01-01T12:00:00.000Z"
}
`}</Code>
      <p>
        Sandbox keys start with <code>sk_test_</code>, live ones with <code>sk_live_</code>. Present a key exactly like a token:{" "}
        <code>Authorization: Bearer sk_test_…</code>. Below, <code>$KEY</code> is the key.
      </p>

      <h2>4. Receive webhooks</h2>
      <p>
        No server of your own yet? Every account has a sandbox inbox: a URL on this gateway that records what it receives and checks the signatures (
        <Link href="/docs/sandbox">Sandbox</Link>). Read its address (with <code>jq</code>, or copy it from the dashboard&apos;s Webhooks page):
      </p>
      <Code>{`
INBOX=$(curl -s http://localhost:3000/api/sandbox/inbox -H "Authorization: Bearer $KEY" | jq -r .inbox_url)
`}</Code>
      <p>
        Then add an endpoint pointing at it (this needs <code>manage_webhooks</code>: use the access token). Its <code>secret</code> is shown here and on
        rotation only. With a server of your own, put its URL instead of <code>$INBOX</code>.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/webhook-endpoints \\
  -H "Authorization: Bearer $ACCESS" -H 'Content-Type: application/json' \\
  -d '{"url":"'"$INBOX"'","events":["payment.pending","payment.confirmed","payment.failed","payment.expired"]}'
`}</Code>
      <p>After the payment of step 6, the inbox lists what arrived:</p>
      <Code>{`
curl -s http://localhost:3000/api/sandbox/inbox -H "Authorization: Bearer $KEY"
`}</Code>
      <p>
        How to verify what arrives: <Link href="/docs/webhooks">Webhooks</Link>.
      </p>

      <h2>5. Create your first order</h2>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"amount":"10.50","currency":"USDC","blockchain":"base","order_info":"{\\"cart\\":\\"A-1001\\"}","nonce":1}'
`}</Code>
      <Code>{`
{
  "success": true,
  "data": {
    "id": 1,
    "order_id": "ORD-7Kq2Vd9XbT3mPz1A",
    "amount": "10.5",
    "currency": "USDC",
    "blockchain": "base",
    "status": "pending",
    "receiving_address": "0x3f2A0b6C1dE4F5a6B7c8D9e0F1a2B3c4D5e6F7a8",
    "payment_url": "http://localhost:3000/pay/ORD-7Kq2Vd9XbT3mPz1A",
    "qr_code_url": "/pay/ORD-7Kq2Vd9XbT3mPz1A/qr.svg",
    "order_info": "{\\"cart\\":\\"A-1001\\"}",
    "nonce": 1,
    "webhook_url": null,
    "redirect_url": null,
    "created_at": "2030-01-01T12:00:00.000Z",
    "expires_at": "2030-01-01T12:30:00.000Z",
    "confirmed_at": null,
    "transaction": null,
    "amount_received": "0",
    "failure_reason": null
  },
  "message": "Created",
  "timestamp": "2030-01-01T12:00:00.000Z"
}
`}</Code>
      <ul>
        <li>
          <code>nonce</code> is yours: unique per merchant, so a retried request with the same nonce is refused with <code>DUPLICATE_NONCE</code> instead of
          creating a second order. Use your own order number.
        </li>
        <li>
          Send the customer to <code>payment_url</code>, or show <code>receiving_address</code> yourself: every order has its own deposit address, and funds
          reach your wallet from it.
        </li>
        <li>
          The order expires after 30 minutes unless you pass <code>expires_at</code>.
        </li>
      </ul>

      <h2>6. Pay it in the sandbox</h2>
      <p>A real transfer on the local devnet from a faucet account to the order&apos;s deposit address, then blocks for the confirmations:</p>
      <Code>{`
curl -s -X POST http://localhost:3000/api/sandbox/payment-orders/ORD-7Kq2Vd9XbT3mPz1A/pay \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{}'

curl -s http://localhost:3000/api/sandbox/mine \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"blocks":3,"blockchain":"base"}'
`}</Code>
      <p>
        The order goes <code>pending</code> → <code>processing</code> (webhook <code>payment.pending</code>) → <code>confirmed</code> (webhook{" "}
        <code>payment.confirmed</code>): ship on <code>payment.confirmed</code>.
      </p>

      <h2>7. Check the order</h2>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders/ORD-7Kq2Vd9XbT3mPz1A -H "Authorization: Bearer $KEY"
`}</Code>
      <p>
        Once confirmed, <code>confirmed_at</code> is set and <code>transaction</code> holds <code>transaction_hash</code>, <code>block_number</code>,{" "}
        <code>confirmations</code> and <code>status</code>. Lists (<code>GET /api/payment-orders/?status=confirmed&amp;page_size=50</code>) come as the bare
        page <code>{`{ count, next, previous, results }`}</code>.
      </p>

      <h2>With the typed client</h2>
      <p>
        <code>lib/client</code> is generated from the OpenAPI document (<code>npm run client:generate</code>) and wraps <code>openapi-fetch</code>: paths,
        bodies and responses are typed. <code>examples/merchant-backend</code> is a complete merchant backend built on it.
      </p>
      <Code>{`
import { createGatewayClient } from "@/lib/client";

const gateway = createGatewayClient({ baseUrl: "http://localhost:3000", apiKey: process.env.GATEWAY_API_KEY! });

const { data, error } = await gateway.POST("/api/payment-orders", {
  body: { amount: "10.50", currency: "USDC", blockchain: "base", order_info: JSON.stringify({ cart: "A-1001" }), nonce: 1 },
});
if (error) throw new Error(\`\${error.error.code}: \${error.error.message}\`);
console.log(data.data.order_id, data.data.payment_url);
`}</Code>
    </main>
  );
}
