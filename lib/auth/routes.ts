import { z } from "zod";
import { bareAnswer, createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { idParams } from "@/lib/http/schemas";
import { apiKeyJson, createApiKeyBody, createdApiKeyJson } from "./api-key-schemas";
import {
  accountJson,
  beginTotpBody,
  confirmTotpBody,
  disableTotpBody,
  loginSecondFactorBody,
  loginPasskeyOptionsBody,
  passkeyJson,
  passkeyOptionsBody,
  passkeyOptionsJson,
  registerPasskeyBody,
  registeredPasskeyJson,
  removePasskeyBody,
  recoveryCodesJson,
  secondFactorStatusJson,
  sessionJson,
  sessionParams,
  totpEnrolmentJson,
  loginBody,
  loginJson,
  refreshBody,
  registerBody,
  registerJson,
  rotatedAccountSecretJson,
  tokenPairJson,
  updateAccountBody,
  verifyJson,
} from "./schemas";

/** Accounts, tokens and API keys. */
export const authRoutes = {
  register: defineRoute({
    method: "POST",
    path: "/api/auth/register",
    access: "public",
    body: registerBody,
    // DESIGN: 100 registrations an hour per client address.
    clientLimit: { name: "register", perHour: 100 },
    doc: {
      summary: "Register a merchant account",
      description: "Creates the account and its webhook secret. Then log in for tokens. At most 100 registrations an hour per client address.",
      tags: ["Authentication"],
      response: bareAnswer(registerJson, 201),
      errors: ["RATE_LIMITED"],
    },
  }),
  login: defineRoute({
    method: "POST",
    path: "/api/auth/login",
    access: "public",
    body: loginBody,
    doc: {
      summary: "Log in",
      description:
        "Exchanges username and password for an access token (24 hours) and a refresh token (30 days), both acting in one merchant account: `account` (an id from GET /api/accounts/) picks it for a login that belongs to several; without it, the login's own account (else the first it joined). The answer's `account` names it and the login's role there, which decides what the tokens may do. 10 failures in 15 minutes per username or client address lock login with 429. An account with two-factor authentication gets no tokens here: the right password answers 401 SECOND_FACTOR_REQUIRED with a top-level `second_factor` { challenge, methods, expires_at }; send the challenge and a code to POST /api/auth/login/second-factor/ within 5 minutes.",
      tags: ["Authentication"],
      response: bareAnswer(loginJson),
      errors: ["INVALID_CREDENTIALS", "SECOND_FACTOR_REQUIRED", "RATE_LIMITED"],
    },
  }),
  loginSecondFactor: defineRoute({
    method: "POST",
    path: "/api/auth/login/second-factor",
    access: "public",
    body: loginSecondFactorBody,
    clientLimit: { name: "login-second-factor", perHour: 100 },
    doc: {
      summary: "Log in: the second step",
      description:
        "Completes a login answered 401 SECOND_FACTOR_REQUIRED: the `challenge` from that answer and a current code of the authenticator app (each code works once) or an unused recovery code, or instead of `code` a `passkey` assertion over the options from POST /api/auth/login/second-factor/passkey-options/, give the same token pair and user as POST /api/auth/login/. A wrong or reused code is 401 INVALID_CREDENTIALS; an expired or forged challenge 401 INVALID_TOKEN (log in again). A refused passkey (wrong origin, spent challenge, replay) is 401 INVALID_CREDENTIALS too. 5 wrong codes or passkey assertions in 15 minutes lock the account's second step (429), and a client address may call this 100 times an hour.",
      tags: ["Authentication"],
      response: bareAnswer(loginJson),
      errors: ["INVALID_CREDENTIALS", "INVALID_TOKEN", "RATE_LIMITED"],
    },
  }),
  loginPasskeyOptions: defineRoute({
    method: "POST",
    path: "/api/auth/login/second-factor/passkey-options",
    access: "public",
    body: loginPasskeyOptionsBody,
    clientLimit: { name: "passkey-options", perHour: 100 },
    doc: {
      summary: "Log in: passkey options for the second step",
      description:
        "For a login answered 401 SECOND_FACTOR_REQUIRED whose `methods` include `passkey`: WebAuthn request options limited to the account's passkeys. Give them to navigator.credentials.get() (e.g. @simplewebauthn/browser's startAuthentication()) and send the result as `passkey` with the same `challenge` to POST /api/auth/login/second-factor/. The WebAuthn challenge works once, for 5 minutes. Expired or forged login challenge: 401 INVALID_TOKEN; no passkey on the account: 409 CONFLICT. A client address may call this 100 times an hour.",
      tags: ["Authentication"],
      response: okAnswer(passkeyOptionsJson),
      errors: ["INVALID_TOKEN", "CONFLICT", "RATE_LIMITED"],
    },
  }),
  refresh: defineRoute({
    method: "POST",
    path: "/api/auth/token/refresh",
    access: "public",
    body: refreshBody,
    doc: {
      summary: "Refresh tokens",
      description:
        "Rotates a refresh token into a new pair; replace both. Each refresh token works once: presenting a used one revokes every token issued from it.",
      tags: ["Authentication"],
      response: bareAnswer(tokenPairJson),
      errors: ["INVALID_TOKEN"],
    },
  }),
  verify: defineRoute({
    method: "GET",
    path: "/api/auth/verify",
    access: "authenticated",
    doc: {
      summary: "Verify a credential",
      description: "Whether the presented access token or API key is valid, whose it is and what it may do.",
      tags: ["Authentication"],
      response: bareAnswer(verifyJson),
    },
  }),
  getAccount: defineRoute({
    method: "GET",
    path: "/api/account",
    access: "login",
    doc: {
      summary: "Get the account",
      description: "The logged-in merchant's account, plan, rate limit and webhook secret.",
      tags: ["Account"],
      response: okAnswer(accountJson),
    },
  }),
  updateAccount: defineRoute({
    method: "PUT",
    path: "/api/account",
    access: "manage_account",
    body: updateAccountBody,
    doc: {
      summary: "Update account settings",
      description:
        "`payment_tolerance_bps`: how far below its amount a payment may fall and still pay an order, in basis points (0–1000; 50 = 0.5 %). An order counts as paid when it received at least amount × (1 − tolerance). Applies to orders created afterwards.",
      tags: ["Account"],
      bodyExamples: { tolerance: { summary: "Accept payments up to 0.5 % short", value: { payment_tolerance_bps: 50 } } },
      response: okAnswer(accountJson, "Account updated."),
    },
  }),
  rotateAccountSecret: defineRoute({
    method: "POST",
    path: "/api/account/rotate-webhook-secret",
    access: "manage_account",
    doc: {
      summary: "Rotate the account webhook secret",
      description: "The account secret signs deliveries to per-order `webhook_url`s. The old secret keeps signing (alongside) for 24 hours.",
      tags: ["Account"],
      response: okAnswer(rotatedAccountSecretJson, "Webhook secret rotated."),
    },
  }),
  getSecondFactors: defineRoute({
    method: "GET",
    path: "/api/account/second-factor",
    access: "login",
    doc: {
      summary: "Two-factor authentication status",
      description: "Whether TOTP is enabled, how many passkeys are registered and how many recovery codes are left.",
      tags: ["Account"],
      response: okAnswer(secondFactorStatusJson),
    },
  }),
  beginTotp: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/totp",
    access: "login",
    body: beginTotpBody,
    doc: {
      summary: "Start TOTP enrolment",
      description:
        "Needs the current password in `reauth` (wrong: 400 VALIDATION_ERROR on reauth.password, counted toward the login throttle). Answers a new secret, shown this once, and its otpauth:// URI for a QR code. Nothing changes at login until POST /api/account/second-factor/totp/confirm/ with a first code. Starting again replaces a pending enrolment; once enabled: 409 CONFLICT.",
      tags: ["Account"],
      response: createdAnswer(totpEnrolmentJson, "Scan the QR code or type the secret into your authenticator app, then confirm with a code."),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
  confirmTotp: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/totp/confirm",
    access: "login",
    body: confirmTotpBody,
    doc: {
      summary: "Confirm TOTP enrolment",
      description:
        "The app's current code enables two-factor authentication and answers ten single-use recovery codes, shown this once (stored hashed). From then on login, API key creation, new webhook endpoints, payout address changes and disabling ask for a code. Wrong code: 400 VALIDATION_ERROR on code; 5 wrong codes in 15 minutes: 429.",
      tags: ["Account"],
      response: okAnswer(recoveryCodesJson, "Two-factor authentication is on. Store the recovery codes now: they will not be shown again."),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
  disableTotp: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/totp/disable",
    access: "login",
    body: disableTotpBody,
    doc: {
      summary: "Disable TOTP",
      description:
        "Needs the password and a fresh code or recovery code in `reauth` (400 VALIDATION_ERROR on reauth.password or reauth.code). Removes the authenticator and the recovery codes.",
      tags: ["Account"],
      response: okAnswer(secondFactorStatusJson, "Two-factor authentication is off."),
      errors: ["RATE_LIMITED"],
    },
  }),
  listPasskeys: defineRoute({
    method: "GET",
    path: "/api/account/second-factor/passkeys",
    access: "login",
    doc: {
      summary: "List passkeys",
      description: "The passkeys registered as a second factor, oldest first.",
      tags: ["Account"],
      response: okAnswer(z.array(passkeyJson)),
    },
  }),
  passkeyRegistrationOptions: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/passkeys/options",
    access: "login",
    body: passkeyOptionsBody,
    clientLimit: { name: "passkey-options", perHour: 100 },
    doc: {
      summary: "Start registering a passkey",
      description:
        "Needs the current password in `reauth`, and a fresh second factor (`code` or `passkey`) when two-factor authentication is already on (400 VALIDATION_ERROR on reauth.password or reauth.code). Answers WebAuthn creation options for navigator.credentials.create() (e.g. @simplewebauthn/browser's startRegistration()); send the result to POST /api/account/second-factor/passkeys/. RP ID and origin come from APP_URL. A client address may call this 100 times an hour.",
      tags: ["Account"],
      response: okAnswer(passkeyOptionsJson),
      errors: ["RATE_LIMITED"],
    },
  }),
  registerPasskey: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/passkeys",
    access: "login",
    body: registerPasskeyBody,
    doc: {
      summary: "Register a passkey",
      description:
        "The browser's answer to the creation options: the passkey becomes a second factor at once (login, API keys, webhook endpoints, payout addresses and removing factors then ask for it or another factor). The account's first second factor also gets ten single-use recovery codes, shown this once. A spent, expired or foreign challenge or another origin: 400 VALIDATION_ERROR on response.",
      tags: ["Account"],
      response: createdAnswer(registeredPasskeyJson, "Passkey added."),
      errors: ["CONFLICT"],
    },
  }),
  passkeyProofOptions: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/passkeys/proof-options",
    access: "login",
    clientLimit: { name: "passkey-options", perHour: 100 },
    doc: {
      summary: "Passkey options for a fresh proof",
      description:
        "WebAuthn request options for the account's passkeys; the assertion goes in `reauth.passkey` of a change that asks a fresh second factor (instead of `reauth.code`). Works once, for 5 minutes. No passkey: 409 CONFLICT. A client address may call this 100 times an hour.",
      tags: ["Account"],
      response: okAnswer(passkeyOptionsJson),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
  removePasskey: defineRoute({
    method: "POST",
    path: "/api/account/second-factor/passkeys/[id]/remove",
    access: "login",
    params: idParams,
    body: removePasskeyBody,
    doc: {
      summary: "Remove a passkey",
      description:
        "Needs the password and a fresh second factor in `reauth` (400 VALIDATION_ERROR on reauth.password or reauth.code). Removing the account's last second factor turns two-factor authentication off (recovery codes go too).",
      tags: ["Account"],
      response: okAnswer(z.object({ removed: z.boolean(), two_factor_off: z.boolean() }), "Passkey removed."),
      errors: ["NOT_FOUND", "RATE_LIMITED"],
    },
  }),
  listSessions: defineRoute({
    method: "GET",
    path: "/api/account/sessions",
    access: "login",
    doc: {
      summary: "List active sessions",
      description:
        "The account's sessions that can still act, most recently seen first: API logins (each a refresh-token family) and dashboard sign-ins, with the device (from the User-Agent), the address and when each was last seen. `current` marks the one making this request.",
      tags: ["Account"],
      response: okAnswer(z.array(sessionJson)),
    },
  }),
  revokeSession: defineRoute({
    method: "DELETE",
    path: "/api/account/sessions/[id]",
    access: "login",
    params: sessionParams,
    doc: {
      summary: "Revoke a session",
      description:
        "Ends the session at once: its refresh token is refused (401 INVALID_TOKEN), its access tokens stop working, a dashboard session is signed out on its next page. Revoking twice is harmless; another account's session is 404. Recorded in the audit log.",
      tags: ["Account"],
      response: okAnswer(sessionJson, "Session revoked."),
    },
  }),
  listApiKeys: defineRoute({
    method: "GET",
    path: "/api/api-keys",
    access: "manage_api_keys",
    query: pageQuery,
    doc: {
      summary: "List API keys",
      description: "Newest first. Secrets are never shown again after creation.",
      tags: ["API keys"],
      response: pageAnswer(apiKeyJson),
    },
  }),
  createApiKey: defineRoute({
    method: "POST",
    path: "/api/api-keys",
    access: "manage_api_keys",
    body: createApiKeyBody,
    doc: {
      summary: "Create an API key",
      description:
        "Give `permissions` or a `preset`. A key carries at most what your role allows (a developer: read, create_payments, manage_webhooks; more is 403 INSUFFICIENT_PERMISSIONS); it names you as its maker, is narrowed to your new role if it shrinks, and is revoked if you leave the account. The `key` is in this response only: store it now. With two-factor authentication enabled, also send `reauth` { code } (missing or wrong: 400 VALIDATION_ERROR on reauth.code).",
      tags: ["API keys"],
      response: createdAnswer(createdApiKeyJson, "API key created. Store the key now: it will not be shown again."),
    },
  }),
  revokeApiKey: defineRoute({
    method: "DELETE",
    path: "/api/api-keys/[id]",
    access: "manage_api_keys",
    params: idParams,
    doc: {
      summary: "Revoke an API key",
      description: "The key stops working at once. Revoking twice is harmless.",
      tags: ["API keys"],
      response: okAnswer(apiKeyJson, "API key revoked."),
    },
  }),
};
