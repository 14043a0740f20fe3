import type { Metadata } from "next";
import { Code, Note, styles } from "../code";

export const metadata: Metadata = { title: "Invoices" };

// /docs/invoices – invoices by e-mail: create, send, get paid (in parts), PDFs, reminders, the store's look
export default function InvoicesGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Invoices</h1>
      <p className={styles.lead}>
        Bill a client without a shop page: the gateway mails the invoice with a link to a hosted invoice page, where your client pays it in crypto through the
        same checkout as your orders, all at once or (if you allow it) in parts. Reminders, a PDF of the invoice and of its receipt, and webhooks come with it.
      </p>

      <h2>1. Settings (once)</h2>
      <p>
        The invoice number&apos;s format (<code>{"{seq}"}</code>, <code>{"{seq:N}"}</code> zero-padded to N digits, <code>{"{yyyy}"}</code>; default{" "}
        <code>{"{yyyy}-{seq:4}"}</code>), whether clients may pay part of an invoice at a time, and the reminder schedule: days before and after the due date.
        Numbers count up per store and are never repeated or skipped.
      </p>
      <Code label="Invoice settings">{`
curl -s -X PUT http://localhost:3000/api/invoice-settings/ \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{"number_format":"INV-{yyyy}-{seq:4}","allow_partial_payments":true,"reminder_days_before":[3],"reminder_days_after":[1,7]}'
`}</Code>

      <h2>2. Create an invoice</h2>
      <p>
        <code>$KEY</code> is an API key with <code>create_payments</code> (<a href="/docs/quick-start">Quick start</a>, step 3). An invoice has a client (name
        and e-mail; address and tax id are printed when given), line items (quantity × unit price), optional tax lines (percent of the subtotal), a currency, a
        due date, notes and the methods the client may pay with. Every method&apos;s chain needs an active wallet of yours.
      </p>
      <ul>
        <li>
          <strong>A fiat currency</strong> (<code>EUR</code>, <code>USD</code>, …): each payment is converted at the rate of the moment it is made, into the
          token the client picks.
        </li>
        <li>
          <strong>A token</strong> (<code>USDC</code>): every accepted method must be that token (on any chain); the amounts are in it.
        </li>
      </ul>
      <p>Amounts are decimal strings, computed exactly and rounded half up, line by line, to the currency&apos;s precision.</p>
      <Code label="Create an invoice">{`
curl -s http://localhost:3000/api/invoices/ \\
  -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\
  -d '{
    "client": {"name":"Acme GmbH","email":"accounts@acme.example","address":"Hauptstr. 1, 10115 Berlin","tax_id":"DE123456789"},
    "items": [
      {"description":"Logo design","quantity":"1","unit_price":"800.00"},
      {"description":"Revisions (hours)","quantity":"2.5","unit_price":"60.00"}
    ],
    "taxes": [{"name":"VAT","rate":"19"}],
    "currency": "EUR",
    "due_at": "2030-01-31T00:00:00Z",
    "notes": "Thank you for your business.",
    "accepted_methods": [{"blockchain":"base","currency":"USDC"},{"blockchain":"base","currency":"ETH"}]
  }'
`}</Code>
      <p>
        <code>201 Created</code> with the draft (abridged):
      </p>
      <Code>{`
{
  "success": true,
  "message": "Invoice created.",
  "data": {
    "id": "INV-3n8Qe0sZk2VbX7pL9tRw4y",
    "number": "INV-2030-0001",
    "status": "draft",
    "currency": "EUR",
    "subtotal": "950.00",
    "tax_total": "180.50",
    "total": "1130.50",
    "amount_paid": "0.00",
    "amount_due": "1130.50",
    "url": "http://localhost:3000/invoice/INV-3n8Qe0sZk2VbX7pL9tRw4y",
    …
  }
}
`}</Code>
      <p>
        A draft can be changed (<code>PUT /api/invoices/{"{id}"}/</code>, the same body). Preview it as a PDF on the dashboard&apos;s Invoices page.
      </p>

      <h2>3. Send it</h2>
      <Code label="Send an invoice">{`
curl -s -X POST http://localhost:3000/api/invoices/INV-3n8Qe0sZk2VbX7pL9tRw4y/send/ -H "Authorization: Bearer $KEY"
`}</Code>
      <p>
        The client gets an e-mail with the link to <code>/invoice/{"{id}"}</code>; the draft becomes <code>sent</code> and you get the <code>invoice.sent</code>{" "}
        webhook. Sending an open invoice again mails it again. In the sandbox the mail also lands in the dashboard&apos;s Outbox, so you can follow the link
        yourself.
      </p>
      <Note>
        The hosted page is public to whoever holds its link (its id is long and random). It shows the invoice (parties, items, taxes, totals, what is paid and
        what is due), a <em>Download PDF</em> link, and, while it is open, the payment form.
      </Note>

      <h2>4. Your client pays</h2>
      <p>
        On the invoice page the client picks a method and, where you allow partial payments, an amount up to what is due (all of it by default), then pays on
        the ordinary payment page. Each payment is an ordinary order; once it is confirmed the invoice moves on:
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">status</th>
            <th scope="col">when</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              <code>draft</code>
            </td>
            <td>created, not sent; the only state that can be edited</td>
          </tr>
          <tr>
            <td>
              <code>sent</code>
            </td>
            <td>mailed to the client</td>
          </tr>
          <tr>
            <td>
              <code>partially_paid</code>
            </td>
            <td>some of it is paid</td>
          </tr>
          <tr>
            <td>
              <code>overdue</code>
            </td>
            <td>
              past its due date and not paid in full (<code>invoice.overdue</code>)
            </td>
          </tr>
          <tr>
            <td>
              <code>paid</code>
            </td>
            <td>
              paid in full (<code>invoice.paid</code>); the client gets a receipt e-mail and the page offers the receipt as a PDF
            </td>
          </tr>
          <tr>
            <td>
              <code>void</code>
            </td>
            <td>
              cancelled while unpaid (<code>POST …/void/</code>, <code>invoice.voided</code> if it had been sent); the page takes no payments
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        A sent invoice is not edited: void it and duplicate it (<code>POST /api/invoices/{"{id}"}/duplicate/</code>, a new draft with the next number). Follow
        an invoice with the webhooks (<a href="/docs/webhooks">Webhooks</a>) or by asking:
      </p>
      <Code label="An invoice, and the open ones">{`
curl -s http://localhost:3000/api/invoices/INV-3n8Qe0sZk2VbX7pL9tRw4y/ -H "Authorization: Bearer $KEY"
curl -s 'http://localhost:3000/api/invoices/?status=partially_paid' -H "Authorization: Bearer $KEY"
`}</Code>
      <p>
        The PDFs are at <code>/invoice/{"{id}"}/pdf</code> and, once paid in full, <code>/invoice/{"{id}"}/pdf?kind=receipt</code>.
      </p>

      <h2>Reminders</h2>
      <p>
        Each day in <code>reminder_days_before</code> and <code>reminder_days_after</code> sends the client one reminder while the invoice is open. If the
        gateway was down when several fell due, one mail goes for all of them.
      </p>

      <h2>Mail to your customers, and your look</h2>
      <ul>
        <li>
          Mail to a customer is written in their language (English, German, French, Spanish, Portuguese, Japanese or Chinese): the language of the payment,
          subscribe or invoice page they gave their address or paid on. You may set it yourself: <code>locale</code> on an invoice, <code>customer_locale</code>{" "}
          on a subscription (<code>ja</code>, <code>de</code>, …). Where nothing is known, the mail goes out in the language you chose for your dashboard, else
          in English.
        </li>
        <li>
          Every mail to a client or customer carries a one-click unsubscribe (<code>List-Unsubscribe</code>); an address that unsubscribed from your store, or
          that the mail server refused for good, gets no more of its mail. Invoices are no exception: if a client unsubscribed, send them the link yourself.
        </li>
        <li>
          Your display name, accent colour, support contact and logo (dashboard › Branding, or <code>PUT /api/branding/</code> with a login that may manage the
          account) show on the invoice, payment, link and receipt pages and in the mail. The accent colour carries white text, so it must reach a 4.5:1 contrast
          with white; a logo is re-encoded as a PNG (SVG is refused).
        </li>
      </ul>
    </main>
  );
}
