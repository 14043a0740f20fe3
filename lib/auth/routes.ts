import { bareAnswer, createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import { pageQuery } from "@/lib/http/pagination";
import { idParams } from "@/lib/http/schemas";
import { apiKeyJson, createApiKeyBody, createdApiKeyJson } from "./api-key-schemas";
import {
  accountJson,
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
        "Exchanges username and password for an access token (24 hours) and a refresh token (30 days). 10 failures in 15 minutes per username or client address lock login with 429.",
      tags: ["Authentication"],
      response: bareAnswer(loginJson),
      errors: ["INVALID_CREDENTIALS", "RATE_LIMITED"],
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
    access: "login",
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
    access: "login",
    doc: {
      summary: "Rotate the account webhook secret",
      description: "The account secret signs deliveries to per-order `webhook_url`s. The old secret keeps signing (alongside) for 24 hours.",
      tags: ["Account"],
      response: okAnswer(rotatedAccountSecretJson, "Webhook secret rotated."),
    },
  }),
  listApiKeys: defineRoute({
    method: "GET",
    path: "/api/api-keys",
    access: "login",
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
    access: "login",
    body: createApiKeyBody,
    doc: {
      summary: "Create an API key",
      description: "Give `permissions` or a `preset`. The `key` is in this response only: store it now.",
      tags: ["API keys"],
      response: createdAnswer(createdApiKeyJson, "API key created. Store the key now: it will not be shown again."),
    },
  }),
  revokeApiKey: defineRoute({
    method: "DELETE",
    path: "/api/api-keys/[id]",
    access: "login",
    params: idParams,
    doc: {
      summary: "Revoke an API key",
      description: "The key stops working at once. Revoking twice is harmless.",
      tags: ["API keys"],
      response: okAnswer(apiKeyJson, "API key revoked."),
    },
  }),
};
