import { z } from "zod";
import { defineRoute, okAnswer } from "@/lib/http/define-route";
import { customerLocale, decimalString, timestamp, txHash } from "@/lib/http/schemas";
import { subscriptionStatuses } from "@/lib/db/schema/subscriptions";
import { publicBrandJson } from "@/lib/branding/schemas";
import { authorizeSubscriptionBody, subscriptionParams } from "./schemas";

export const hostedSubscriptionJson = z.object({
  id: z.string().describe("Public id, SUB-…"),
  status: z.enum(subscriptionStatuses),
  plan_name: z.string(),
  shop_name: z.string(),
  brand: publicBrandJson,
  blockchain: z.object({ slug: z.string(), name: z.string(), chain_id: z.number().int().nullable() }),
  currency: z.string(),
  max_amount: decimalString.describe("The most one period may take (token units)"),
  interval_days: z.number().int(),
  trial_days: z.number().int(),
  periods: z.number().int().nullable(),
  starts_at: timestamp,
  ends_at: timestamp.nullable(),
  customer_address: z.string().describe("The only wallet debited: the one that must sign"),
  pull_address: z.string(),
  authorization: z.object({ method: z.enum(["permit", "approve"]), spender: z.string(), token: z.string(), value: z.string() }),
  periods_charged: z.number().int(),
  canceled_at: timestamp.nullable(),
  authorized: z.boolean().describe("The pull contract is deployed or holds an allowance of at least one period"),
  permit: z
    .object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }),
      message: z.object({ owner: z.string(), spender: z.string(), value: z.string(), nonce: z.string(), deadline: z.string() }),
    })
    .nullable()
    .describe("For a permit not yet given: the EIP-2612 Permit message to sign (types: owner, spender, value, nonce, deadline)"),
});

const manageLinkJson = z.object({
  id: z.string(),
  manage_url: z.string().describe("The customer's manage page: keep it, it lets its holder cancel the subscription"),
});

export const confirmApprovalBody = z.object({
  transaction_hash: txHash.describe("The customer's approve transaction, mined"),
  locale: customerLocale
    .optional()
    .describe(
      "The subscribe page's language: the customer's mail is written in it unless the store set `customer_locale`; without it, the request's language cookie or Accept-Language",
    ),
});

export const manageTokenBody = z.object({
  token: z.string().min(1).max(200).describe("The token of the manage link (/subscribe/manage/{token})"),
});

/** The customer's side: the hosted subscribe page's calls and the manage page's cancel (all public). */
export const subscriptionHostedRoutes = {
  getHostedSubscription: defineRoute({
    method: "GET",
    path: "/api/hosted-subscriptions/[id]",
    access: "public",
    params: subscriptionParams,
    clientLimit: { name: "subscription-view", perHour: 600 },
    doc: {
      summary: "Get a subscription's public view",
      description:
        "What the hosted page /subscribe/{id} shows: the terms, the store, whether the allowance is in place, and for a permit token the EIP-2612 message the customer signs. Public by the subscription's unguessable id.",
      tags: ["Subscriptions", "Payment page"],
      response: okAnswer(hostedSubscriptionJson),
    },
  }),
  authorizeHostedSubscription: defineRoute({
    method: "POST",
    path: "/api/hosted-subscriptions/[id]/authorize",
    access: "public",
    params: subscriptionParams,
    body: authorizeSubscriptionBody,
    clientLimit: { name: "subscription-authorize", perHour: 30 },
    doc: {
      summary: "Submit the customer's permit (hosted page)",
      description:
        "Public: the permit is its own proof (only the subscriber's signature for the recorded `pull_address` and value passes, and nothing sent changes the terms). The gateway deploys the pull contract with it, once (409 CONFLICT after), and answers the customer's `manage_url`. A signature the token refuses is 400 naming `signature`. Its gas counts against the gasless relay budgets: over them, 429 RELAY_BUDGET_EXHAUSTED (nothing sent; the page offers the approve transaction instead).",
      tags: ["Subscriptions", "Payment page"],
      response: okAnswer(manageLinkJson, "Authorization submitted."),
      errors: ["CONFLICT", "RATE_LIMITED", "RELAY_BUDGET_EXHAUSTED"],
    },
  }),
  confirmHostedApproval: defineRoute({
    method: "POST",
    path: "/api/hosted-subscriptions/[id]/approval",
    access: "public",
    params: subscriptionParams,
    body: confirmApprovalBody,
    clientLimit: { name: "subscription-approval", perHour: 30 },
    doc: {
      summary: "Confirm the customer's approve (hosted page)",
      description:
        "For `authorization.method: approve`: once the customer's own approve transaction is mined (sent by the subscriber, approving `pull_address` on the subscription's token for at least one period), answers the customer's `manage_url`; anything else is 400 naming `transaction_hash`.",
      tags: ["Subscriptions", "Payment page"],
      response: okAnswer(manageLinkJson),
      errors: ["RATE_LIMITED"],
    },
  }),
  cancelManagedSubscription: defineRoute({
    method: "POST",
    path: "/api/manage-subscription/cancel",
    access: "public",
    body: manageTokenBody,
    clientLimit: { name: "subscription-manage", perHour: 60 },
    doc: {
      summary: "Cancel a subscription (customer)",
      description:
        "The manage page's cancel: the token of the manage link names the subscription. Final, like the merchant's cancel; its history and audit entries name the customer. An unknown or forged token is 404; a subscription already canceled or ended is 409 CONFLICT.",
      tags: ["Subscriptions", "Payment page"],
      response: okAnswer(z.object({ id: z.string(), status: z.enum(subscriptionStatuses) }), "Subscription canceled."),
      errors: ["CONFLICT", "RATE_LIMITED"],
    },
  }),
};
