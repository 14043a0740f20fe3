/**
 * Every email the gateway sends: plain functions returning subject, text and html, each naming the
 * shop. The one place wording lives; callers pick a template and hand the result to sendMail.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Paragraphs of plain text; a paragraph that is a URL becomes a link in the html. */
function compose(subject: string, paragraphs: string[]): MailContent {
  const text = paragraphs.join("\n\n") + "\n";
  const html = paragraphs
    .map((p) => (/^https?:\/\/\S+$/.test(p) ? `<p><a href="${escapeHtml(p)}">${escapeHtml(p)}</a></p>` : `<p>${escapeHtml(p)}</p>`))
    .join("\n");
  return { subject, text, html: `<!doctype html><html><body>${html}</body></html>` };
}

const ignoreIfNotYou = "If this was not you, reset your password at once and review your payout wallets and API keys.";

export function verifyEmailMail(shopName: string, link: string, expiresHours: number): MailContent {
  return compose(`${shopName}: confirm your email address`, [
    `Confirm that this address belongs to the payment gateway account of ${shopName}:`,
    link,
    `The link works once and expires in ${expiresHours} hours. If you did not create this account, ignore this message.`,
  ]);
}

export function passwordResetMail(shopName: string, link: string, expiresMinutes: number): MailContent {
  return compose(`${shopName}: reset your password`, [
    `Someone asked to reset the password of the payment gateway account of ${shopName}. To choose a new password, open:`,
    link,
    `The link works once and expires in ${expiresMinutes} minutes. Resetting signs out every session and revokes every refresh token. If you did not ask, ignore this message: your password stays as it is.`,
  ]);
}

export function passwordChangedMail(shopName: string): MailContent {
  return compose(`${shopName}: your password was reset`, [
    `The password of the payment gateway account of ${shopName} was reset, and every session was signed out.`,
    "If this was not you, reset it again from the sign-in page and contact support.",
  ]);
}

export function newSignInMail(shopName: string, clientIp: string, at: Date): MailContent {
  return compose(`${shopName}: new sign-in from ${clientIp}`, [
    `The payment gateway account of ${shopName} was signed in to from an address it was not used from before: ${clientIp}, at ${at.toISOString()}.`,
    ignoreIfNotYou,
  ]);
}

export function payoutAddressChangedMail(
  shopName: string,
  change: { blockchain: string; previousAddress: string; newAddress: string; clientIp: string; at: Date },
): MailContent {
  return compose(`${shopName}: payout address changed on ${change.blockchain}`, [
    `The payout address of the payment gateway account of ${shopName} on ${change.blockchain} was changed at ${change.at.toISOString()} from ${change.clientIp}.`,
    `Previous address: ${change.previousAddress}`,
    `New address: ${change.newAddress}`,
    `New orders now pay to the new address. ${ignoreIfNotYou}`,
  ]);
}

export function twoFactorDisabledMail(shopName: string, clientIp: string, at: Date): MailContent {
  return compose(`${shopName}: two-factor sign-in was turned off`, [
    `Two-factor sign-in of the payment gateway account of ${shopName} was turned off at ${at.toISOString()} from ${clientIp}.`,
    ignoreIfNotYou,
  ]);
}

export function invitationMail(shopName: string, inviter: string, link: string, expiresHours: number): MailContent {
  return compose(`${inviter} invited you to ${shopName}`, [
    `${inviter} invited you to the payment gateway account of ${shopName}. To accept, open:`,
    link,
    `The invitation works once and expires in ${expiresHours} hours. If you do not know ${inviter}, ignore this message.`,
  ]);
}

// ─── mail to a store's clients ───

export interface InvoiceMailFacts {
  number: string;
  amountDue: string;
  currency: string;
  dueAt: Date;
  url: string;
}

const day = (at: Date) => at.toISOString().slice(0, 10);

export function invoiceMail(shopName: string, invoice: InvoiceMailFacts): MailContent {
  return compose(`Invoice ${invoice.number} from ${shopName}`, [
    `${shopName} sent you invoice ${invoice.number} for ${invoice.amountDue} ${invoice.currency}, due on ${day(invoice.dueAt)}.`,
    "View, download and pay it here:",
    invoice.url,
  ]);
}

export function invoiceReminderMail(shopName: string, invoice: InvoiceMailFacts, overdue: boolean): MailContent {
  return compose(
    overdue ? `Overdue: invoice ${invoice.number} from ${shopName}` : `Reminder: invoice ${invoice.number} from ${shopName} is due on ${day(invoice.dueAt)}`,
    [
      overdue
        ? `Invoice ${invoice.number} from ${shopName} was due on ${day(invoice.dueAt)}; ${invoice.amountDue} ${invoice.currency} is still open.`
        : `A reminder: invoice ${invoice.number} from ${shopName} is due on ${day(invoice.dueAt)}; ${invoice.amountDue} ${invoice.currency} is open.`,
      "View and pay it here:",
      invoice.url,
      "If you have already paid, thank you: ignore this message.",
    ],
  );
}

export function invoicePaidMail(shopName: string, invoice: InvoiceMailFacts & { total: string }): MailContent {
  return compose(`Receipt: invoice ${invoice.number} from ${shopName} is paid`, [
    `Thank you: invoice ${invoice.number} from ${shopName} for ${invoice.total} ${invoice.currency} is paid in full.`,
    "The invoice and its receipt stay available here:",
    invoice.url,
  ]);
}

export function orderReceiptMail(
  shopName: string,
  receipt: { orderId: string; item: string | null; amount: string; currency: string; network: string; paidAt: Date; url: string },
): MailContent {
  return compose(`Receipt from ${shopName}: ${receipt.amount} ${receipt.currency}`, [
    `Thank you: your payment of ${receipt.amount} ${receipt.currency} on ${receipt.network} to ${shopName}${receipt.item ? ` for ${receipt.item}` : ""} is confirmed (${receipt.paidAt.toISOString().slice(0, 10)}, order ${receipt.orderId}).`,
    "Your receipt:",
    receipt.url,
  ]);
}

export function refundSentMail(
  shopName: string,
  refund: { orderId: string; amount: string; currency: string; network: string; txHash: string | null },
): MailContent {
  return compose(`${shopName} sent you a refund of ${refund.amount} ${refund.currency}`, [
    `${shopName} refunded ${refund.amount} ${refund.currency} on ${refund.network} for order ${refund.orderId}; the transfer is confirmed on chain.`,
    ...(refund.txHash ? [`Transaction: ${refund.txHash}`] : []),
  ]);
}

export function refundAddressLinkMail(
  shopName: string,
  link: { orderId: string; network: string; currency: string; url: string; expiresHours: number },
): MailContent {
  return compose(`${shopName}: where should your refund go?`, [
    `You asked for a way to tell ${shopName} where to send your refund for order ${link.orderId}. Open this link and enter your own address on ${link.network} that can receive ${link.currency}:`,
    link.url,
    `The link works once and expires in ${link.expiresHours} hours. Anyone who has it can name the refund address: do not forward it. If you did not ask for it, ignore this message.`,
  ]);
}

// ─── mail to a subscription's customer (each carries the manage link: its reader's credential) ───

export interface SubscriptionMailFacts {
  subscriptionId: string;
  planName: string;
  /** The most one period may take, in token units, and the token. */
  maxAmount: string;
  currency: string;
  network: string;
  intervalDays: number;
  manageUrl: string;
}

const manageLines = (s: SubscriptionMailFacts) => [
  "See the subscription, its charges and cancel it at any time here (this link is yours: do not forward it):",
  s.manageUrl,
];

export function subscriptionAuthorizedMail(shopName: string, s: SubscriptionMailFacts & { firstChargeAt: Date }): MailContent {
  return compose(`You subscribed to ${s.planName} from ${shopName}`, [
    `Your wallet authorized ${shopName} to charge at most ${s.maxAmount} ${s.currency} on ${s.network} every ${s.intervalDays} days for ${s.planName} (subscription ${s.subscriptionId}). The first charge is due from ${day(s.firstChargeAt)}.`,
    "Each charge goes straight from your wallet to the store's; nobody can take more than one period's amount per period.",
    ...manageLines(s),
  ]);
}

export function subscriptionReceiptMail(
  shopName: string,
  s: SubscriptionMailFacts & {
    amount: string;
    /** A fiat plan's price the amount was converted from ("10.00 EUR"). */
    price: string | null;
    period: number;
    periodStart: Date;
    periodEnd: Date;
    txHash: string | null;
    chargedAt: Date;
  },
): MailContent {
  return compose(`Receipt from ${shopName}: ${s.amount} ${s.currency} for ${s.planName}`, [
    `Thank you: ${shopName} charged ${s.amount} ${s.currency}${s.price ? ` (${s.price})` : ""} on ${s.network} for ${s.planName}, period ${s.period + 1} (${day(s.periodStart)} to ${day(s.periodEnd)}); the transfer is confirmed on chain (${day(s.chargedAt)}, subscription ${s.subscriptionId}).`,
    ...(s.txHash ? [`Transaction: ${s.txHash}`] : []),
    ...manageLines(s),
  ]);
}

export function subscriptionPastDueMail(shopName: string, s: SubscriptionMailFacts): MailContent {
  return compose(`${shopName}: your subscription to ${s.planName} is past due`, [
    `${shopName} could not charge ${s.planName} (subscription ${s.subscriptionId}) from your wallet on ${s.network}: the wallet holds too little ${s.currency}, or the allowance was revoked. The charge is retried for a while; without it the subscription will be canceled.`,
    ...manageLines(s),
  ]);
}

export function subscriptionCanceledMail(shopName: string, s: SubscriptionMailFacts & { by: "you" | "store" | "unpaid" }): MailContent {
  const why = { you: "as you asked", store: `by ${shopName}`, unpaid: "because its charges could not be collected" }[s.by];
  return compose(`${shopName}: your subscription to ${s.planName} is canceled`, [
    `Your subscription to ${s.planName} from ${shopName} (subscription ${s.subscriptionId}) was canceled ${why}. Nothing more will be charged: its contract refuses every charge after a cancel.`,
    "To take back the allowance your wallet granted, revoke it from the manage page (one transaction from your wallet):",
    s.manageUrl,
  ]);
}
