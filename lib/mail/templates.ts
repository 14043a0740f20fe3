/**
 * The gateway's mail to a store's own logins: plain functions returning subject, text and html, each
 * naming the shop; callers pick a template and hand the result to sendMail. A store's mail to its
 * customers is written in the customer's language from messages/*.json (lib/mail/customer-templates.ts).
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** Paragraphs of plain text; a paragraph that is a URL becomes a link in the html, written in `lang`. */
export function compose(subject: string, paragraphs: string[], lang = "en"): MailContent {
  const text = paragraphs.join("\n\n") + "\n";
  const html = paragraphs
    .map((p) => (/^https?:\/\/\S+$/.test(p) ? `<p><a href="${escapeHtml(p)}">${escapeHtml(p)}</a></p>` : `<p>${escapeHtml(p)}</p>`))
    .join("\n");
  return { subject, text, html: `<!doctype html><html lang="${escapeHtml(lang)}"><body>${html}</body></html>` };
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
