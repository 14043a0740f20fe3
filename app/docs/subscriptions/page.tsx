import type { Metadata } from "next";
import Link from "next/link";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Subscriptions" };

// /docs/subscriptions – recurring payments pulled from the customer's wallet, capped per period, without custody
export default function SubscriptionsGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Subscriptions</h1>
      <p className={styles.lead}>
        The customer approves once; each period the gateway moves at most one period&apos;s amount from their wallet straight to yours. Nobody holds the money:
        the allowance goes to a small contract made for that one subscription, which can pay only your wallet, only once per period, and nothing after a cancel.
      </p>

      <h2>1. Create a plan</h2>
      <p>An ERC-20 token on one chain, an amount per period, the period in days, and optionally a free trial and a number of periods:</p>
      <Code>{`
PLAN=$(curl -s http://localhost:3000/api/subscription-plans/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"name":"Pro, monthly","blockchain":"base","currency":"USDC","amount":"9.99","interval_days":30,"trial_days":7}' | jq -r .data.id)
echo $PLAN
`}</Code>
      <p>
        <code>grace_days</code> (default 3) is how long a failed charge (an empty wallet, a revoked allowance) is retried before the subscription is{" "}
        <code>past_due</code>; <code>past_due_days</code> (default 7) how long after that it is canceled.
      </p>

      <h2>2. Create the customer&apos;s subscription</h2>
      <p>The terms are fixed for one customer wallet (the only one ever charged) and your active wallet on the plan&apos;s chain (the only one ever paid):</p>
      <Code>{`
SUB=$(curl -s http://localhost:3000/api/subscriptions/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"plan":"'$PLAN'","customer_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","customer_email":"ada@example.com"}' | jq -r .data.id)
echo http://localhost:3000/subscribe/$SUB
`}</Code>
      <p>
        The answer&apos;s <code>id</code> (<code>SUB-…</code>) names the hosted subscribe page: send the customer to <code>/subscribe/SUB-…</code>. Without a
        backend, share the plan&apos;s public link instead (below): each customer makes their own subscription there.
      </p>

      <h3 id="public-link">Or share the plan&apos;s public link</h3>
      <p>
        A plan&apos;s public subscribe page, <code>/subscribe/plan/PLN-…</code>, lets any customer who has the link start their own subscription: they see the
        terms, give the wallet they pay from (typed, pasted, or read from their browser wallet) and optionally their mail address, and continue on their own
        subscribe page to sign, as above. It is <strong>off</strong> until you switch it on, since anyone with the link can make subscriptions to your plan.
        Switch it on when creating the plan (<code>&quot;public_link&quot;: true</code>), from the dashboard (Subscriptions › Plans › Share link, with a Copy
        button), or later:
      </p>
      <Code>{`
curl -s -X PATCH http://localhost:3000/api/subscription-plans/$PLAN/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \
  -d '{"public_link":true}' | jq -r .data.public_url
# http://localhost:3000/subscribe/plan/PLN-…
`}</Code>
      <p>
        Each subscription made there is like one you made: the same terms, a <code>subscription.created</code> webhook, the same charges. The page is limited
        per client address (30 subscriptions an hour), a customer who comes back within a day with the same wallet and mail address gets the subscription still
        waiting for their signature, and while 100 of the plan&apos;s subscriptions from the last day wait for a signature the link answers 429. Send{" "}
        <code>&quot;public_link&quot;: false</code> to stop sharing (the page is then a plain &quot;not available&quot; page, as for an unknown plan), or{" "}
        <code>&quot;status&quot;: &quot;archived&quot;</code> to take no new subscribers at all: the page then says so, and the subscriptions you have go on.
      </p>
      <p>
        <code>customer_email</code> is optional. Where you give it, the customer is mailed in your store&apos;s name (with your support contact and a one-click
        unsubscribe): their manage link once they authorized, a receipt for each confirmed charge (amount, token, period, transaction), and a notice if the
        subscription becomes past due or is canceled. Nothing is mailed before they authorize. Sandbox mail goes to no one&apos;s outbox: it carries the
        customer&apos;s manage link.
      </p>

      <h2>3. The customer subscribes</h2>
      <p>
        The subscribe page shows what they agree to (the most one period may take, the period, the first charge after any trial, the number of periods, the
        whole allowance, and how to cancel), in their language. They connect the wallet the subscription names (a browser wallet, or a phone wallet through
        WalletConnect where <code>WALLETCONNECT_PROJECT_ID</code> is set, as on the payment page) and sign once:
      </p>
      <ul>
        <li>
          for a token with EIP-2612 <code>permit</code> (USDC), one signature and no gas: the gateway deploys the subscription&apos;s contract with it;
        </li>
        <li>
          for other tokens, one <code>approve</code> transaction from their wallet.
        </li>
      </ul>
      <p>
        At the end the page gives them a <strong>manage link</strong>, where they see the subscription and its charges, cancel it, and revoke the allowance from
        their wallet. Only the customer gets that link (it is handed out for the signature or the approve transaction of the subscription&apos;s wallet); a
        subscription&apos;s id alone does not open it.
      </p>
      <Note>
        Your backend can do the signing step itself instead: the <code>permit</code> field of <code>GET /api/hosted-subscriptions/SUB-…/</code> is the EIP-2612
        message to sign, and <code>POST /api/subscriptions/SUB-…/authorize/</code> with your API key, or the public{" "}
        <code>POST /api/hosted-subscriptions/SUB-…/authorize/</code>, takes the customer&apos;s <code>signature</code> and <code>deadline</code>.
      </Note>

      <h2>4. Charges, and what you hear of them</h2>
      <p>
        Each period is charged once, when it starts (by the chain&apos;s clock). Your webhook endpoints receive <code>subscription.created</code>,{" "}
        <code>subscription.charged</code>, <code>subscription.payment_failed</code>, <code>subscription.past_due</code> and <code>subscription.canceled</code>{" "}
        (see <Link href="/docs/webhooks">Webhooks</Link>); a subscription&apos;s <code>history</code> lists every change.
      </p>
      <Code>{`
curl -s http://localhost:3000/api/subscriptions/$SUB/ -H "authorization: Bearer $KEY"
curl -s 'http://localhost:3000/api/subscriptions/?status=past_due' -H "authorization: Bearer $KEY"
`}</Code>

      <h2>5. Pause, resume, cancel</h2>
      <Code>{`
curl -s -X POST http://localhost:3000/api/subscriptions/$SUB/pause/ -H "authorization: Bearer $KEY"
curl -s -X POST http://localhost:3000/api/subscriptions/$SUB/resume/ -H "authorization: Bearer $KEY"
curl -s -X POST http://localhost:3000/api/subscriptions/$SUB/cancel/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"reason":"asked by phone"}'
`}</Code>
      <p>
        The dashboard&apos;s Subscriptions page does the same, lists and filters subscriptions, creates plans and exports CSV. A cancel is final: the contract
        is cancelled on chain too. A customer&apos;s cancel from the manage page shows in the history as <code>{`{"by":"customer"}`}</code>.
      </p>
    </main>
  );
}
