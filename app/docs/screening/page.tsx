import type { Metadata } from "next";
import { styles } from "../code";

export const metadata: Metadata = { title: "Screening and currencies" };

// /docs/screening – sanctions screening of payers and refund destinations; the currencies a store takes
export default function ScreeningGuidePage() {
  return (
    <main className={styles.guide}>
      <h1>Screening and currencies</h1>
      <p className={styles.lead}>
        The gateway checks who pays you and where your refunds go against a sanctions list of crypto addresses, and lets you choose which currencies you take on
        each chain.
      </p>

      <h2>What is screened, and when</h2>
      <ul>
        <li>
          <strong>Every payer</strong>: the sender of each transfer to one of your orders, as soon as the transfer is recorded, before the order is judged.
        </li>
        <li>
          <strong>Every refund destination</strong>: the address of a refund you request (and the refund address a customer gives on the payment page). A listed
          address is refused with <code>400 SANCTIONED_ADDRESS</code>; nothing is built.
        </li>
        <li>
          <strong>Payout destinations</strong>, where your deployment builds payouts, go through the same check.
        </li>
      </ul>
      <p>
        The list is the US Treasury&apos;s Specially Designated Nationals (SDN) list: the crypto addresses it publishes for listed parties (EVM addresses,
        whatever currency they are listed under). The gateway&apos;s operator loads it from the file the Treasury publishes; the dashboard&apos;s Screening page
        shows the list&apos;s publish date, so you know how current it is. The operator may also connect a screening provider, asked about addresses the list
        does not hold.
      </p>

      <h2>What your orders show</h2>
      <p>
        Every payment order (<code>GET /api/payment-orders/{"{order_id}"}/</code>, the creation response and every order webhook) carries <code>screening</code>
        : its <code>status</code> is <code>clear</code> (no payer matched so far), <code>flagged</code> (a payer matched and your policy is <code>record</code>
        ), <code>held</code> (a match holds the payment) or <code>released</code> (a held payment a member released), and <code>list_date</code> is the publish
        date of the list loaded now (<code>null</code> while no list is loaded: nothing is then screened against one).
      </p>

      <h2>What happens to a payment from a listed address</h2>
      <p>
        You get a <code>payment.flagged</code> webhook, and your store&apos;s policy (dashboard › Screening, owners and admins) decides the rest:
      </p>
      <ul>
        <li>
          <code>hold</code> (the default): the order stays <code>processing</code>. No <code>payment.confirmed</code> is sent until an owner or admin releases
          the payment on the Screening page (the audit log records who and when); it is then confirmed once it has its confirmations, and you receive{" "}
          <code>payment.confirmed</code> once.
        </li>
        <li>
          <code>record</code>: the payment is flagged and goes on as usual.
        </li>
        <li>
          <code>refund</code>: the payment is never confirmed and cannot be released; refund it (to an address that passes screening).
        </li>
      </ul>
      <p>
        The gateway holds the confirmation, not the money: it is non-custodial, and the deposit is swept to your wallet as usual. What you do with money from a
        listed party (blocking, reporting) is for you and your compliance advisers to decide.
      </p>

      <h2>What you and the operator remain responsible for</h2>
      <ul>
        <li>The list is as current as its last load: check its date on the Screening page; the operator refreshes it.</li>
        <li>Other sanctions lists (UN, EU, UK) and non-EVM identifiers are not loaded; a screening provider can cover them.</li>
        <li>Screening matches addresses: it does not trace funds through intermediaries.</li>
        <li>Decisions on held payments, and any reporting obligations.</li>
      </ul>

      <h2>Currencies you take</h2>
      <p>
        The Currencies page of the dashboard lists each chain&apos;s currencies with their contract address, decimals and whether the payment page offers
        gasless payment for them (only tokens with EIP-3009: Circle&apos;s USDC and EURC). On live networks each chain offers its native coin and USDC; Ethereum
        and Base also EURC (Circle&apos;s euro token); Ethereum also USDT (Tether&apos;s) and DAI (Maker&apos;s). A token goes live only once its address and
        decimals are read in its issuer&apos;s own documentation: USDT on the other chains is USD₮0, a different, bridged token, and is not offered. EURC and
        DAI orders are priced in the token, or in fiat where the operator configured a EURC/USD or DAI/USD price feed. Owners and admins switch a currency off
        on one chain: new orders, accepted methods and payment links asking for it are refused with <code>400 UNSUPPORTED_CURRENCY</code>; orders already made
        keep their currency.
      </p>
      <p>
        USDT&apos;s contract differs from other tokens: its <code>transfer</code> and <code>approve</code> return nothing, <code>approve</code> only works from
        a zero allowance, and Tether can blocklist addresses and switch on a transfer fee (a fee would make the amount that arrives smaller than the amount
        sent). The sandbox&apos;s USDT behaves the same way, so you can try it there. For a USDT payout, a batch also carries{" "}
        <code>allowance_reset_transaction</code> (an approve of 0), which the dashboard sends first when an earlier allowance still stands.
      </p>
    </main>
  );
}
