import type { Metadata } from "next";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Sandbox" };

// /docs/sandbox – the test environment and its tools
export default function SandboxGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Sandbox</h1>
      <p className={styles.lead}>
        The sandbox is the same API in test mode (<code>GATEWAY_MODE=sandbox</code>, the default of <code>npm run dev</code>): test keys (<code>sk_test_…</code>
        ), a local EVM devnet carrying every blockchain slug with test USDC and USDT (6 decimals), and tools to pay, confirm and watch webhooks without a wallet
        or a server. In live mode every tool below answers <code>404 NOT_FOUND</code>.
      </p>

      <h2>Pay an order</h2>
      <p>
        A real transfer on the devnet from a faucet account to the order&apos;s deposit address. By default it pays the full amount in the order&apos;s
        currency; pass <code>amount</code> to underpay or overpay, or another <code>currency</code> to check that a wrong token does not count. Needs{" "}
        <code>create_payments</code>.
      </p>
      <Code>{`
curl -s -X POST http://localhost:3000/api/sandbox/payment-orders/ORD-7Kq2Vd9XbT3mPz1A/pay \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"amount":"10.5"}'
`}</Code>
      <Code>{`
{
  "success": true,
  "data": {
    "transaction_hash": "0x8c4f…",
    "order_id": "ORD-7Kq2Vd9XbT3mPz1A",
    "to_address": "0x3f2A0b6C1dE4F5a6B7c8D9e0F1a2B3c4D5e6F7a8",
    "amount": "10.5",
    "currency": "USDC",
    "blockchain": "base"
  },
  "message": "Payment sent on the devnet.",
  "timestamp": "2030-01-01T12:01:00.000Z"
}
`}</Code>

      <h2>Confirm it: mine blocks</h2>
      <p>
        Orders confirm after the wallet&apos;s <code>confirmation_threshold</code> (3 on the devnet by default). Mine them instead of waiting:
      </p>
      <Code>{`
curl -s http://localhost:3000/api/sandbox/mine \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '{"blocks":3,"blockchain":"base"}'
# {"success":true,"data":{"blocks":3,"block_number":57,"blockchain":"base"},"message":"Mined 3 block(s).",…}
`}</Code>

      <h2>Test tokens</h2>
      <Code>{`
curl -s http://localhost:3000/api/sandbox/faucet \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","currency":"USDC","amount":"100","blockchain":"base"}'
`}</Code>
      <p>
        Useful to pay from your own wallet through the hosted payment page (<code>payment_url</code>) on the devnet.
      </p>

      <h2>Webhook inbox</h2>
      <p>
        Every account has a capture URL that records whatever it receives and checks its signatures. Point a webhook endpoint or an order&apos;s{" "}
        <code>webhook_url</code> at it, then read what arrived:
      </p>
      <Code>{`
curl -s http://localhost:3000/api/sandbox/inbox -H "Authorization: Bearer $KEY"
`}</Code>
      <Code>{`
{
  "inbox_url": "http://localhost:3000/api/sandbox/inbox/inb_3Xr9…",
  "count": 1,
  "next": null,
  "previous": null,
  "results": [
    {
      "id": 1,
      "received_at": "2030-01-01T12:04:10.000Z",
      "method": "POST",
      "headers": { "content-type": "application/json", "webhook-id": "msg_…", "webhook-timestamp": "1893499450", "webhook-signature": "v1,…", "x-webhook-signature": "9f2c…" },
      "body": "{\\"id\\":\\"evt_…\\",\\"event\\":\\"payment.confirmed\\",…}",
      "signature_valid": true,
      "signature_details": { "x_webhook_signature": "valid", "webhook_signature": "valid", "signed_with": "endpoint 1" }
    }
  ]
}
`}</Code>
      <p>
        The dashboard shows the same inbox, and every endpoint has <em>Send test event</em> and <em>Redeliver</em> (the API&apos;s{" "}
        <code>POST /api/webhook-endpoints/{"{id}"}/test/</code> and <code>POST /api/webhook-deliveries/{"{id}"}/redeliver/</code>).
      </p>

      <h2>What differs from live</h2>
      <ul>
        <li>
          Keys are <code>sk_test_…</code> (live keys are <code>sk_live_…</code>).
        </li>
        <li>
          Webhook URLs may be <code>http</code> and loopback (<code>localhost</code>, <code>127.0.0.1</code>), so a backend on your machine receives them. Live
          mode requires https and public addresses.
        </li>
        <li>The devnet restarts with the server: its chain starts over, and pending payments on the old chain are dropped.</li>
      </ul>
      <Note>
        The sandbox tools need the devnet. When the server runs with <code>DEVNET=off</code> they answer <code>503 SERVICE_UNAVAILABLE</code>.
      </Note>
    </main>
  );
}
