import { bareAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import {
  messageJson,
  passwordResetConfirmBody,
  passwordResetRequestBody,
  resentVerificationJson,
  unsubscribedJson,
  unsubscribeQuery,
  verifiedEmailJson,
  verifyEmailBody,
} from "./schemas";

/** Email links: password reset and address verification. */
export const mailRoutes = {
  requestPasswordReset: defineRoute({
    method: "POST",
    path: "/api/auth/password-reset",
    access: "public",
    body: passwordResetRequestBody,
    clientLimit: { name: "password-reset-request", perHour: 20 },
    doc: {
      summary: "Ask for a password reset link",
      description:
        "Mails a single-use link (valid 1 hour) to the account using that address. The answer is the same whether or not an account uses it. At most 5 requests an hour per address and 20 per client address.",
      tags: ["Authentication"],
      response: bareAnswer(messageJson),
      errors: ["RATE_LIMITED"],
    },
  }),
  confirmPasswordReset: defineRoute({
    method: "POST",
    path: "/api/auth/password-reset/confirm",
    access: "public",
    body: passwordResetConfirmBody,
    clientLimit: { name: "password-reset-confirm", perHour: 30 },
    doc: {
      summary: "Set a new password with a reset link",
      description:
        "Spends the link's token and sets the password. Every session and refresh token of the account is revoked (API keys stay). An invalid, used or expired token answers 400 with `details.token`. At most 30 attempts an hour per client address.",
      tags: ["Authentication"],
      response: bareAnswer(messageJson),
      errors: ["RATE_LIMITED"],
    },
  }),
  verifyEmail: defineRoute({
    method: "POST",
    path: "/api/auth/verify-email",
    access: "public",
    body: verifyEmailBody,
    clientLimit: { name: "verify-email", perHour: 30 },
    doc: {
      summary: "Verify the email address with its link",
      description:
        "Spends the token of a verification link (valid 24 hours, single-use): the address it was sent to is verified (GET /api/account/ shows `email_verified_at`). An invalid, used or expired token answers 400 with `details.token`.",
      tags: ["Authentication"],
      response: bareAnswer(verifiedEmailJson),
      errors: ["RATE_LIMITED"],
    },
  }),
  resendVerification: defineRoute({
    method: "POST",
    path: "/api/auth/verify-email/resend",
    access: "login",
    doc: {
      summary: "Send the verification link again",
      description: "Mails a new verification link to the account's address. At most 5 an hour per account; 409 CONFLICT when the address is already verified.",
      tags: ["Authentication"],
      response: bareAnswer(resentVerificationJson),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
  unsubscribe: defineRoute({
    method: "POST",
    path: "/api/mail/unsubscribe",
    access: "public",
    query: unsubscribeQuery,
    clientLimit: { name: "unsubscribe", perHour: 60 },
    doc: {
      summary: "Unsubscribe from a store's customer mail (one click)",
      description:
        "The List-Unsubscribe target of every mail a store sends its customers (RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click`, which is ignored). The signed token names the store and the address; from now on that store's invoices, reminders, receipts and refund notices are not mailed to it. An invalid token answers 400 with `details.token`.",
      tags: ["Authentication"],
      response: okAnswer(unsubscribedJson, "Unsubscribed."),
      errors: ["RATE_LIMITED"],
    },
  }),
};
