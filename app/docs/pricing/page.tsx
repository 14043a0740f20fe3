import type { Metadata } from "next";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Fiat pricing and payment links" };

// /docs/pricing – orders priced in USD/EUR and paid in a token, and the payment tolerance
export default function PricingGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Fiat pricing and payment links</h1>
      <p className={styles.lead}>
        Price an order in a fiat currency and let the customer pay in a token. The gateway reads the rate from on-chain price feeds, converts once, and locks
        the amount for the order&apos;s lifetime.
      </p>

      <h2>Create a fiat-priced order</h2>
      <p>
        Send <code>price_amount</code> and <code>price_currency</code> instead of <code>amount</code>; <code>currency</code> is the token the customer pays in.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/payment-orders/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"price_amount":"19.90","price_currency":"EUR","currency":"ETH","blockchain":"base","order_info":"{}","nonce":7}'
`}</Code>
      <p>
        The answer keeps <code>amount</code> as the token amount to pay, and adds the price and the locked rate with its source:
      </p>
      <Code>{`
"amount": "0.00632238459577386", "currency": "ETH",
"price_amount": "19.90", "price_currency": "EUR",
"rate": "3147.54657812",
"rate_source": [
  { "pair": "ETH/USD", "feed_address": "0x…", "round_id": "1", "answer": "341257000000", "decimals": 8, "updated_at": "…" },
  { "pair": "EUR/USD", "feed_address": "0x…", "round_id": "1", "answer": "108420000", "decimals": 8, "updated_at": "…" }
]
`}</Code>
      <ul>
        <li>
          <code>amount</code> = price × (fiat/USD) ÷ (token/USD), rounded <em>up</em> to the token&apos;s smallest unit. Stablecoins are converted at their feed
          price (USDC at 0.9998 pays 10.002001 for 10.00 USD), never assumed to be 1.00.
        </li>
        <li>
          <code>rate</code> is price-currency units per whole token, as the payment page shows it. Token-priced orders have <code>price_amount</code>,{" "}
          <code>price_currency</code>, <code>rate</code> and <code>rate_source</code> null.
        </li>
        <li>
          Price currencies: USD, EUR, GBP, CHF, JPY, each where the chain has its <code>&lt;CUR&gt;/USD</code> feed (and the token&apos;s{" "}
          <code>&lt;TOKEN&gt;/USD</code> feed). Otherwise: 400 <code>UNSUPPORTED_PRICE_CURRENCY</code>.
        </li>
        <li>
          A feed whose last update is older than its heartbeat plus a margin (1 h 10 min for ETH/USD and POL/USD, 25 h for stablecoins and currencies) is
          refused with 503 <code>PRICE_FEED_STALE</code>; an unreadable feed gives 503 <code>PRICE_FEED_UNAVAILABLE</code>. No order is created; retry later.
        </li>
      </ul>

      <h2>Where rates come from</h2>
      <p>
        Chainlink <code>AggregatorV3Interface</code> feeds (<code>latestRoundData</code>, <code>decimals</code>) on the order&apos;s own chain, read with the
        gateway&apos;s RPC; no outside API. Ethereum mainnet&apos;s ETH/USD, USDC/USD, USDT/USD and EUR/USD feeds are built in; other networks take theirs from{" "}
        <code>PRICE_FEEDS</code>. The sandbox devnet deploys its own feeds (ETH/USD 3412.57, USDC/USD 0.9998, USDT/USD 1.0003, EUR/USD 1.0842, POL/USD 0.4512),
        which anyone can move with <code>setAnswer</code> to test.
      </p>

      <h2>Payment tolerance</h2>
      <p>
        Wallet rounding and fees can leave a payment a hair short. Set a tolerance in basis points (Settings in the dashboard, or <code>PUT /api/account/</code>{" "}
        with <code>{`{"payment_tolerance_bps": 50}`}</code>): an order counts as paid when it received at least amount × (1 − tolerance). Default 0 (the exact
        amount); at most 1000 (10 %). Each order keeps the tolerance it was created with.
      </p>
      <Note>
        Overpayments always pay the order; <code>amount_received</code> shows what arrived.
      </Note>

      <h2 id="payment-links">Payment links</h2>
      <p>
        A payment link is a reusable page (<code>/link/LNK-…</code>) for a product or a donation: a title, a price per item (token <code>amount</code>, or fiat{" "}
        <code>price_amount</code> + <code>price_currency</code>), the tokens and chains the customer may pay with, and an optional <code>max_quantity</code>.
        Create one in the dashboard (Payment links) or with the API:
      </p>
      <Code>{`
curl -s http://localhost:3000/api/payment-links/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"title":"Conference ticket","price_amount":"49.00","price_currency":"EUR","max_quantity":4,
       "options":[{"blockchain":"base","currency":"ETH"},{"blockchain":"base","currency":"USDC"}]}'
`}</Code>
      <p>
        Share the answer&apos;s <code>url</code>. A customer opening it picks an option and a quantity; the gateway creates a fresh order (its own nonce,{" "}
        <code>order_info</code> <code>{`{"payment_link":"LNK-…","title":"…","quantity":2}`}</code>, a fiat price converted at that moment&apos;s rate) and sends
        them to its payment page. Webhooks and the order list treat it like any other order. <code>GET</code>, <code>PUT</code> and{" "}
        <code>DELETE /api/payment-links/{"{id}"}/</code> manage a link; <code>is_active: false</code> closes it (its page answers 404). The public endpoints (
        <code>GET /api/links/{"{id}"}/</code>, <code>POST /api/links/{"{id}"}/orders/</code>) are limited per client address (600 views and 60 orders an hour).
        A token-priced link offers one token (on any of its chains); price in fiat to offer several.
      </p>
      <p>Orders can also be created by hand, live or sandbox, on the dashboard&apos;s Orders page.</p>
    </main>
  );
}
