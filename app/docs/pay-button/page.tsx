import type { Metadata } from "next";
import Link from "next/link";
import { payButtonSnippet } from "@/lib/dashboard/pay-button";
import { exampleOrigin } from "../base-url";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Pay button" };

const example = payButtonSnippet({ url: `${exampleOrigin}/link/LNK-7Kq2Vd9XbT3m`, label: "Buy the e-book", background: "#0f766e", color: "#ffffff" });

// /docs/pay-button – a button on a site without a backend that opens a payment link's hosted checkout
export default function PayButtonGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Pay button</h1>
      <p className={styles.lead}>
        Sell from a static site, a site builder or a blog without a server of your own: a button opens a payment link&apos;s hosted checkout, where the customer
        picks how to pay and gets a fresh order. You are told of each payment by webhook and in the dashboard.
      </p>

      <h2>1. Create a payment link</h2>
      <p>
        In the dashboard (Payment links → Create a payment link) or with the API (<Link href="/docs/pricing">Fiat pricing and links</Link>):
      </p>
      <Code>{`
curl -s http://localhost:3000/api/payment-links/ -H "authorization: Bearer $KEY" -H 'content-type: application/json' \\
  -d '{"title":"The e-book","price_amount":"9.00","price_currency":"EUR","options":[{"blockchain":"base","currency":"USDC"}]}'
`}</Code>

      <h2>2. Copy the button</h2>
      <p>
        The dashboard&apos;s Payment links page has a button builder: pick the link, the text and your colours, and copy the HTML. It is a plain link styled
        inline, so it needs no script and works wherever HTML does (e-mails included). For the link above:
      </p>
      <Code label="Pay button HTML">{example}</Code>
      <p>Paste it where the button should appear. It opens the checkout in a new tab; change the text or the colours in the HTML as you like.</p>
      <Note>
        Keep the text readable on your colour: the builder warns below a 4.5:1 contrast. A link you deactivate or delete answers 404, so remove its button too.
      </Note>

      <h2>Try it</h2>
      <p>
        The <Link href="/docs/pay-button/example">example shop page</Link> shows a button made this way for one of your links: enter its id (<code>LNK-…</code>)
        and click the button.
      </p>
    </main>
  );
}
