import "server-only";
import { recordAudit } from "@/lib/audit/record";
import { randomBytes } from "node:crypto";
import type { Db, DbOrTx } from "@/lib/db/types";
import type { Merchant, MerchantWallet } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { ApiError, validationError } from "@/lib/http/errors";
import { forgetMerchantCredentials } from "@/lib/auth/credential-cache";
import { sha256Hex } from "@/lib/auth/hash";
import { knownAddressTtlMs } from "@/lib/auth/login-throttle";
import { hashPassword } from "@/lib/auth/passwords";
import { findMerchantById } from "@/lib/auth/queries";
import { consume, rateLimitedError } from "@/lib/rate-limit/fixed-window";
import { findBlockchainById } from "@/lib/chains/catalog";
import { mailInBackground, sendMail } from "./mailer";
import {
  findMerchantByEmail,
  insertEmailToken,
  knownAddressState,
  markEmailVerified,
  pruneKnownAddresses,
  revokeAllRefreshTokens,
  setPasswordHash,
  spendAllEmailTokens,
  spendEmailToken,
} from "./queries";
import { newSignInMail, passwordChangedMail, passwordResetMail, payoutAddressChangedMail, twoFactorDisabledMail, verifyEmailMail } from "./templates";

const hourMs = 60 * 60 * 1000;
export const verifyEmailTtlMs = 24 * hourMs;
export const passwordResetTtlMs = 60 * 60 * 1000;
/** Verification mails one account may ask for again in an hour. */
export const verificationResendsPerHour = 5;
/** Reset mails asked for one address in an hour (whether or not an account uses it). */
export const resetRequestsPerAddressPerHour = 5;
/** Addresses kept per merchant for the new-sign-in notice (the most recent ones). */
export const knownAddressesKept = 20;

type Purpose = "verify_email" | "password_reset";

async function issueToken(db: DbOrTx, merchantId: number, purpose: Purpose, email: string, ttlMs: number, now: Date): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertEmailToken(db, { merchantId, purpose, tokenHash: sha256Hex(token), email, expiresAt: new Date(now.getTime() + ttlMs), createdAt: now });
  return token;
}

function link(path: string, token: string): string {
  const url = new URL(path, env.APP_URL);
  url.searchParams.set("token", token);
  return url.toString();
}

const invalidLink = (field = "token") => validationError({ [field]: ["This link is invalid, was already used or has expired. Ask for a new one."] });

// ─── verification ───

/** Mails a verification link to the account's address (after registration, or asked again). */
export async function sendVerificationEmail(db: Db, merchant: Pick<Merchant, "id" | "email" | "shopName">, now = new Date()): Promise<void> {
  const token = await issueToken(db, merchant.id, "verify_email", merchant.email, verifyEmailTtlMs, now);
  await sendMail(
    db,
    {
      merchantId: merchant.id,
      recipientUserId: merchant.id,
      kind: "verify_email",
      to: merchant.email,
      content: verifyEmailMail(merchant.shopName, link("/verify-email", token), verifyEmailTtlMs / hourMs),
    },
    now,
  );
}

/** Another verification link, at most `verificationResendsPerHour` an hour per account. */
export async function resendVerificationEmail(db: Db, merchantId: number, now = new Date()): Promise<{ email: string }> {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw new ApiError("NOT_FOUND", "Account not found.");
  if (merchant.emailVerifiedAt) throw new ApiError("CONFLICT", "The email address is already verified.");
  const quota = await consume(db, `verify-resend:${merchantId}`, verificationResendsPerHour, hourMs, now);
  if (quota.exceeded) throw rateLimitedError(quota);
  await sendVerificationEmail(db, merchant, now);
  return { email: merchant.email };
}

/** Spends a verification link: the address it was sent to is verified, if the account still has it. */
export async function verifyEmail(db: Db, token: string, now = new Date()): Promise<Merchant> {
  const spent = await spendEmailToken(db, "verify_email", sha256Hex(token), now);
  if (!spent) throw invalidLink();
  const merchant = await markEmailVerified(db, spent.merchantId, spent.email, now);
  if (!merchant) throw invalidLink();
  return merchant;
}

// ─── password reset ───

/**
 * Asks for a reset link for `email`. Answers alike whether or not an account uses the address (no
 * enumeration); at most `resetRequestsPerAddressPerHour` an hour per address, counted either way.
 */
export async function requestPasswordReset(db: Db, email: string, now = new Date()): Promise<void> {
  const address = email.trim().toLowerCase();
  const quota = await consume(db, `reset-request:${sha256Hex(address)}`, resetRequestsPerAddressPerHour, hourMs, now);
  if (quota.exceeded) throw rateLimitedError(quota);
  const merchant = await findMerchantByEmail(db, address);
  if (!merchant) return;
  // Not awaited: the answer must take as long whether or not an account uses the address.
  mailInBackground("password_reset", async () => {
    const token = await issueToken(db, merchant.id, "password_reset", merchant.email, passwordResetTtlMs, now);
    await sendMail(
      db,
      {
        merchantId: merchant.id,
        recipientUserId: merchant.id,
        kind: "password_reset",
        to: merchant.email,
        content: passwordResetMail(merchant.shopName, link("/reset-password", token), passwordResetTtlMs / 60_000),
      },
      now,
    );
  });
}

/**
 * Spends a reset link and sets the new password. Every other reset link of the account stops
 * working and every session and refresh-token family is revoked (dashboard sessions included: they
 * belong to a family). The link's proof is also a proof of the address: it becomes verified.
 */
export async function confirmPasswordReset(db: Db, token: string, password: string, now = new Date()): Promise<Merchant> {
  const passwordHash = await hashPassword(password);
  const merchant = await db.transaction(async (tx) => {
    const spent = await spendEmailToken(tx, "password_reset", sha256Hex(token), now);
    if (!spent) return null;
    await setPasswordHash(tx, spent.merchantId, passwordHash, now);
    await spendAllEmailTokens(tx, spent.merchantId, "password_reset", now);
    await revokeAllRefreshTokens(tx, spent.merchantId, now);
    await recordAudit(tx, {
      merchantId: spent.merchantId,
      action: "auth.password_reset",
      target: `account:${spent.merchantId}`,
      after: { sessions_revoked: true },
      now,
    });
    return (await markEmailVerified(tx, spent.merchantId, spent.email, now)) ?? (await findMerchantById(tx, spent.merchantId));
  });
  if (!merchant) throw invalidLink();
  forgetMerchantCredentials(merchant.id);
  await sendMail(
    db,
    { merchantId: merchant.id, recipientUserId: merchant.id, kind: "password_changed", to: merchant.email, content: passwordChangedMail(merchant.shopName) },
    now,
  );
  return merchant;
}

// ─── security notices ───

/**
 * Before a successful sign-in is recorded: mails the owner when the account has signed in before
 * but never (in the last 90 days) from `clientIp`. Keeps the `knownAddressesKept` most recent addresses.
 * The decision is made here; the mail goes in the background, so a slow or unreachable SMTP server
 * never holds up a sign-in.
 */
export async function noticeSignInFromNewAddress(
  db: Db,
  merchant: Pick<Merchant, "id" | "email" | "shopName">,
  clientIp: string,
  now = new Date(),
): Promise<void> {
  if (clientIp === "unknown") return;
  const state = await knownAddressState(db, merchant.id, clientIp, new Date(now.getTime() - knownAddressTtlMs));
  if (state.known) return;
  if (state.total >= knownAddressesKept) await pruneKnownAddresses(db, merchant.id, knownAddressesKept - 1);
  if (state.total === 0) return; // the first sign-in of the account: nothing to compare with
  mailInBackground("new_sign_in", () =>
    sendMail(
      db,
      {
        merchantId: merchant.id,
        recipientUserId: merchant.id,
        kind: "new_sign_in",
        to: merchant.email,
        content: newSignInMail(merchant.shopName, clientIp, now),
      },
      now,
    ),
  );
}

/** After a payout address changed (committed): mails the owner. */
export async function noticePayoutAddressChanged(
  db: DbOrTx,
  wallet: MerchantWallet,
  previousAddress: string,
  clientIp: string | null,
  now = new Date(),
): Promise<void> {
  const merchant = await findMerchantById(db, wallet.merchantId);
  if (!merchant) return;
  const blockchain = findBlockchainById(wallet.blockchainId)?.name ?? `blockchain ${wallet.blockchainId}`;
  const content = payoutAddressChangedMail(merchant.shopName, {
    blockchain,
    previousAddress,
    newAddress: wallet.walletAddress,
    clientIp: clientIp ?? "an unknown address",
    at: now,
  });
  await sendMail(db, { merchantId: merchant.id, recipientUserId: merchant.id, kind: "payout_address_changed", to: merchant.email, content }, now);
}

/** After the second factor was turned off (lib/auth/manage-totp.ts): mails the owner. */
export async function noticeTwoFactorDisabled(
  db: DbOrTx,
  merchant: Pick<Merchant, "id" | "email" | "shopName">,
  clientIp: string,
  now = new Date(),
): Promise<void> {
  await sendMail(
    db,
    {
      merchantId: merchant.id,
      recipientUserId: merchant.id,
      kind: "two_factor_disabled",
      to: merchant.email,
      content: twoFactorDisabledMail(merchant.shopName, clientIp, now),
    },
    now,
  );
}
