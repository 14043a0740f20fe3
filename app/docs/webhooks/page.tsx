import type { Metadata } from "next";
import Link from "next/link";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Webhooks" };

// /docs/webhooks – receiving, verifying and de-duplicating webhooks
export default function WebhooksGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Webhooks</h1>
      <p className={styles.lead}>
        The gateway tells your backend when an order changes state by POSTing a signed JSON event. Verify the signature, de-duplicate on the event id, answer
        2xx quickly, then do the work.
      </p>

      <h2>Events</h2>
      <table>
        <thead>
          <tr>
            <th>Event</th>
            <th>Order status</th>
            <th>What to do</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>payment.pending</code>
            </td>
            <td>
              <code>processing</code>
            </td>
            <td>Payment seen on chain, waiting for confirmations. Show &quot;payment received&quot;; do not ship yet.</td>
          </tr>
          <tr>
            <td>
              <code>payment.confirmed</code>
            </td>
            <td>
              <code>confirmed</code>
            </td>
            <td>Confirmed: fulfil the order.</td>
          </tr>
          <tr>
            <td>
              <code>payment.failed</code>
            </td>
            <td>
              <code>failed</code>
            </td>
            <td>
              See <code>failure_reason</code>: <code>underpaid</code>, <code>late_payment</code> (paid after expiry) or <code>reverted</code>.
            </td>
          </tr>
          <tr>
            <td>
              <code>payment.expired</code>
            </td>
            <td>
              <code>expired</code>
            </td>
            <td>Nothing arrived in time. Release the stock.</td>
          </tr>
          <tr>
            <td>
              <code>payment.flagged</code>
            </td>
            <td>
              <code>processing</code>
            </td>
            <td>
              The payer failed sanctions screening. Under the <code>hold</code> policy (the default) no <code>payment.confirmed</code> follows until an owner or
              admin releases it on the dashboard&apos;s Screening page; see <a href="/docs/screening">Screening</a>.
            </td>
          </tr>
          <tr>
            <td>
              <code>payment.reorged</code>
            </td>
            <td>
              <code>pending</code>, or <code>confirmed</code> with <code>at_risk: true</code>
            </td>
            <td>
              A chain reorganisation took away a payment you were told about. Before shipping it goes back to <code>pending</code> and waits for the money
              again; after confirmation the order stays confirmed but is flagged at risk: check whether the payment arrives again before you rely on it.
            </td>
          </tr>
          <tr>
            <td>
              <code>refund.created</code>
            </td>
            <td>unchanged</td>
            <td>
              A refund was requested; it is the newest entry of <code>data.refunds</code>, status <code>requested</code> until your wallet&apos;s transfer is
              seen.
            </td>
          </tr>
          <tr>
            <td>
              <code>refund.confirmed</code>
            </td>
            <td>unchanged</td>
            <td>
              A refund&apos;s transfer has the order&apos;s confirmations: its entry in <code>data.refunds</code> is <code>confirmed</code> with its{" "}
              <code>transaction_hash</code>.
            </td>
          </tr>
          <tr>
            <td>
              <code>payout.created</code>, <code>payout.approved</code>, <code>payout.sent</code>, <code>payout.confirmed</code>, <code>payout.failed</code>
            </td>
            <td>no order</td>
            <td>
              A payout batch moved: <code>data</code> is the batch as <code>GET /api/payouts/{"{id}"}/</code> shows it, with each leg&apos;s status; no{" "}
              <code>sequence</code>.
            </td>
          </tr>
          <tr>
            <td>
              <code>invoice.sent</code>
            </td>
            <td>
              invoice <code>sent</code>
            </td>
            <td>
              An invoice was mailed to its client for the first time. <code>data</code> is the invoice as <code>GET /api/invoices/{"{id}"}/</code> returns it;
              invoice events carry no <code>sequence</code>.
            </td>
          </tr>
          <tr>
            <td>
              <code>invoice.paid</code>
            </td>
            <td>
              invoice <code>paid</code>
            </td>
            <td>Confirmed payments add up to the invoice&apos;s total. Deliver the work; the client got a receipt.</td>
          </tr>
          <tr>
            <td>
              <code>invoice.overdue</code>
            </td>
            <td>
              invoice <code>overdue</code>
            </td>
            <td>The due date passed with money still due. Reminders follow on your schedule.</td>
          </tr>
          <tr>
            <td>
              <code>invoice.voided</code>
            </td>
            <td>
              invoice <code>void</code>
            </td>
            <td>You voided a sent invoice; its page takes no more payments.</td>
          </tr>
        </tbody>
      </table>
      <p>
        Events go to every active endpoint subscribed to them (<code>POST /api/webhook-endpoints/</code>; an empty <code>events</code> list means all) and to
        the order&apos;s own <code>webhook_url</code> if it was created with one.
      </p>

      <h2>The request</h2>
      <Code>{`
POST /webhooks HTTP/1.1
Content-Type: application/json
webhook-id: msg_2a9S8kdu3LmqPz0bXw
webhook-timestamp: 1893499200
webhook-signature: v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
x-webhook-signature: 9f2c4e0b8a7d…(64 hex digits)

{"id":"evt_5hV3…","event":"payment.confirmed","created_at":"2030-01-01T12:04:10.000Z","sequence":2,"data":{"id":1,"order_id":"ORD-7Kq2Vd9XbT3mPz1A","amount":"10.5","currency":"USDC","blockchain":"base","status":"confirmed", … ,"transaction":{"transaction_hash":"0x…","block_number":1234567,"confirmations":3,"status":"confirmed"},"amount_received":"10.5","failure_reason":null,"sweep":{"status":"pending","destination":"0x…","transaction_hash":null}}}
`}</Code>
      <p>
        The body is <code>{`{ id, event, created_at, sequence, data }`}</code>; <code>data</code> is the order exactly as{" "}
        <code>GET /api/payment-orders/{"{order_id}"}/</code> returned it after the change (schema <code>WebhookEvent</code> in the{" "}
        <Link href="/docs">reference</Link>).
      </p>
      <p>
        <code>sequence</code> numbers one order&apos;s events 1, 2, 3… in the order its transitions happened. One order&apos;s events are sent to you one after
        another, but a retry can overtake: apply an order&apos;s event only if its <code>sequence</code> is higher than the last one you applied. An order
        settles once: <code>payment.confirmed</code> and <code>payment.failed</code> are final; <code>payment.expired</code> is final unless the order&apos;s
        asset arrives late, which is then announced as <code>payment.failed</code> (<code>late_payment</code>) with the next sequence number. Refund events
        carry the order too (with its <code>refunds</code> array) and take the order&apos;s next sequence numbers.
      </p>

      <h2>Refunds</h2>
      <p>
        The gateway never holds funds, so a refund is a transfer you sign with your own wallet (the one the deposit was swept to).{" "}
        <code>POST /api/payment-orders/{"{order_id}"}/refunds/</code> with <code>to_address</code> (the customer&apos;s; the payment page lets the customer
        leave one for an overpaid, underpaid or late payment, signed by the wallet that paid, shown as the order&apos;s <code>refund_address</code>
        with the signer in <code>refund_address_signed_by</code>) and an optional <code>amount</code> (default: everything refundable) or{" "}
        <code>&quot;overpaid_only&quot;: true</code> answers with <code>transaction</code>: <code>from</code>, <code>to</code>, <code>data</code>,{" "}
        <code>value</code>, <code>chainId</code>. Send exactly that (the dashboard&apos;s order page has a &quot;Sign with my wallet&quot; button). The gateway
        matches the transfer on chain by sender, recipient, asset and exact amount (another amount does not match), shows the refund <code>pending</code>, then{" "}
        <code>confirmed</code> after the order&apos;s confirmation threshold, and sends <code>refund.confirmed</code>. Refundable: what arrived of the
        order&apos;s currency (late payments included) minus refunds requested, pending or confirmed; more is refused with{" "}
        <code>REFUND_EXCEEDS_REFUNDABLE</code>.
      </p>

      <h2>Verifying the signatures</h2>
      <p>Every delivery carries two independent signatures. Check at least one; checking both costs nothing.</p>
      <table>
        <thead>
          <tr>
            <th>Header</th>
            <th>Value</th>
            <th>Key</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>x-webhook-signature</code>
            </td>
            <td>hex HMAC-SHA256 of the raw body bytes</td>
            <td>
              the whole secret string, <code>whsec_…</code> included
            </td>
          </tr>
          <tr>
            <td>
              <code>webhook-signature</code> (Standard Webhooks)
            </td>
            <td>
              <code>v1,</code> + base64 HMAC-SHA256 of <code>{"${webhook-id}.${webhook-timestamp}.${body}"}</code>; several, space-separated, during a secret
              rotation
            </td>
            <td>
              the bytes of the base64 part after <code>whsec_</code>
            </td>
          </tr>
        </tbody>
      </table>
      <Note>
        Sign the <strong>raw body</strong> as received. Parsing and re-serialising JSON changes the bytes and breaks the signature. Compare in constant time,
        and refuse a <code>webhook-timestamp</code> more than five minutes from your clock (replay protection).
      </Note>
      <Code label="Node.js (no dependencies)">{`
import { createHmac, timingSafeEqual } from "node:crypto";

const TOLERANCE_SECONDS = 5 * 60;

function safeEqual(a, b) {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The spec header: hex HMAC-SHA256 of the raw body, keyed with the whole "whsec_…" string. */
export function verifyHexSignature(rawBody, header, secret) {
  if (!header) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest("hex");
  return safeEqual(expected, header.trim().toLowerCase());
}

/** Standard Webhooks: "v1,<base64>" over "id.timestamp.body", keyed with the base64-decoded part after "whsec_". */
export function verifyStandardSignature(rawBody, headers, secret, now = Date.now()) {
  const id = headers["webhook-id"], timestamp = headers["webhook-timestamp"], signature = headers["webhook-signature"];
  if (!id || !timestamp || !signature || !/^\\d+$/.test(timestamp)) return false;
  if (Math.abs(Math.floor(now / 1000) - Number(timestamp)) > TOLERANCE_SECONDS) return false; // stale: maybe a replay
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = "v1," + createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest("base64");
  return signature.split(" ").some((candidate) => safeEqual(candidate, expected));
}
`}</Code>
      <p>
        With Express, read the raw body with <code>express.raw({'{ type: "application/json" }'})</code>; with Next.js route handlers,{" "}
        <code>await request.text()</code>. Answer <code>401</code> when verification fails. The complete receiver, with tests, is{" "}
        <code>examples/merchant-backend</code>; the Standard Webhooks libraries (<code>standardwebhooks</code> on npm, and others) verify{" "}
        <code>webhook-signature</code> too.
      </p>

      <h3>Which secret?</h3>
      <ul>
        <li>
          Deliveries to a webhook endpoint: that endpoint&apos;s <code>secret</code> (shown at creation and by{" "}
          <code>POST /api/webhook-endpoints/{"{id}"}/rotate-secret/</code>).
        </li>
        <li>
          Deliveries to an order&apos;s <code>webhook_url</code>: the account&apos;s <code>webhook_secret</code> (<code>GET /api/account/</code>).
        </li>
        <li>
          After a rotation the old secret still signs for 24 hours: <code>webhook-signature</code> then carries two <code>v1,</code> signatures, one per secret,
          so a receiver that still has the old secret keeps working until you deploy the new one.
        </li>
      </ul>

      <h2>Retries and acknowledgement</h2>
      <ul>
        <li>
          Any <code>2xx</code> acknowledges. Anything else, a timeout or a network error is retried.
        </li>
        <li>
          Retries back off exponentially with jitter for about three days (30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h, 24 h), then the delivery is
          marked <code>failed</code>. Answering <code>410 Gone</code> disables the endpoint.
        </li>
        <li>
          Every attempt is logged: <code>GET /api/webhook-endpoints/{"{id}"}/deliveries/</code> shows status, duration, the response&apos;s start, and the exact
          payload; <code>POST /api/webhook-deliveries/{"{id}"}/redeliver/</code> sends one again.
        </li>
        <li>
          <code>POST /api/webhook-endpoints/{"{id}"}/test/</code> <code>{`{"event":"payment.confirmed"}`}</code> sends a signed sample right away and returns
          the attempt: the quickest check of your receiver.
        </li>
        <li>Answer fast (do the work after acknowledging, or in a queue): slow answers time out and are retried.</li>
      </ul>

      <h2>Idempotency</h2>
      <p>Delivery is at least once, so the same event can arrive twice (a retry after your 200 was lost, a manual redelivery):</p>
      <ul>
        <li>
          <code>id</code> (<code>evt_…</code>) names the event: store it and skip events you have processed. <code>webhook-id</code> (<code>msg_…</code>) is the
          same on every retry of one delivery.
        </li>
        <li>
          Events can arrive out of order. Treat <code>data.status</code> as the state to move to, never move an order backwards from <code>confirmed</code>, and
          when in doubt read the order with <code>GET /api/payment-orders/{"{order_id}"}/</code>.
        </li>
        <li>
          On your side, create orders with your own order number as <code>nonce</code>: retrying a create cannot make a second order.
        </li>
      </ul>
      <p>
        Missed something? <code>GET /api/events/?order_id=ORD-…</code> lists every event of an order, newest first.
      </p>
    </main>
  );
}
