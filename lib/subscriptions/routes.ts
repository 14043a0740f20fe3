import { createdAnswer, defineRoute, okAnswer, pageAnswer } from "@/lib/http/define-route";
import {
  authorizeSubscriptionBody,
  cancelSubscriptionBody,
  createPlanBody,
  createSubscriptionBody,
  listPlansQuery,
  listSubscriptionsQuery,
  planJson,
  planParams,
  subscriptionJson,
  subscriptionParams,
} from "./schemas";

const monthlyPlan = { name: "Pro, monthly", blockchain: "base", currency: "USDC", amount: "9.99", interval_days: 30, trial_days: 7 };

/** Subscriptions: the merchant's plans and subscriptions. */
export const subscriptionRoutes = {
  listPlans: defineRoute({
    method: "GET",
    path: "/api/subscription-plans",
    access: "read",
    query: listPlansQuery,
    doc: { summary: "List subscription plans", description: "Newest first.", tags: ["Subscriptions"], response: pageAnswer(planJson) },
  }),
  createPlan: defineRoute({
    method: "POST",
    path: "/api/subscription-plans",
    access: "create_payments",
    body: createPlanBody,
    doc: {
      summary: "Create a subscription plan",
      description:
        "What a subscriber agrees to: an ERC-20 on one chain, an amount per period in token units (or a fiat `price_amount` converted at each period's rate, capped by `max_amount` in token units), the period in days, an optional trial, the grace period over which a failed charge is retried (less than the period), the days past due before cancelling, and optionally a number of periods. Each customer subscribes through a subscription made for their wallet (`POST /api/subscriptions`), whose hosted page is `/subscribe/{SUB-id}`.",
      tags: ["Subscriptions"],
      bodyExamples: {
        token: { summary: "9.99 USDC every 30 days after a 7-day trial", value: monthlyPlan },
        fiat: {
          summary: "10 EUR a month in USDC, at most 12 USDC a period",
          value: { name: "Club", blockchain: "base", currency: "USDC", price_amount: "10.00", price_currency: "EUR", max_amount: "12", interval_days: 30 },
        },
      },
      response: createdAnswer(planJson, "Subscription plan created."),
      errors: ["INVALID_AMOUNT", "UNSUPPORTED_CURRENCY", "INVALID_BLOCKCHAIN", "UNSUPPORTED_PRICE_CURRENCY"],
    },
  }),
  getPlan: defineRoute({
    method: "GET",
    path: "/api/subscription-plans/[id]",
    access: "read",
    params: planParams,
    doc: { summary: "Get a subscription plan", tags: ["Subscriptions"], response: okAnswer(planJson) },
  }),
  listSubscriptions: defineRoute({
    method: "GET",
    path: "/api/subscriptions",
    access: "read",
    query: listSubscriptionsQuery,
    doc: {
      summary: "List subscriptions",
      description: "Newest first; filter by `status`, `plan` or `customer_address`.",
      tags: ["Subscriptions"],
      response: pageAnswer(subscriptionJson),
    },
  }),
  createSubscription: defineRoute({
    method: "POST",
    path: "/api/subscriptions",
    access: "create_payments",
    body: createSubscriptionBody,
    doc: {
      summary: "Create a subscription",
      description:
        "Fixes the terms for a customer's wallet (the merchant's active wallet on the plan's chain is the only one ever paid) and answers the subscription's `pull_address`: the customer grants the `authorization` to it (an EIP-2612 permit or an approve), after which each period is charged. The hosted subscribe page does this for customers who come without a backend.",
      tags: ["Subscriptions"],
      bodyExamples: {
        one: {
          summary: "A customer's wallet",
          value: { plan: "PLN-7Kq2xW9pLm3Nabcd", customer_address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", customer_email: "ada@example.com" },
        },
      },
      response: createdAnswer(subscriptionJson, "Subscription created."),
      errors: ["INVALID_BLOCKCHAIN", "WALLET_NOT_CONFIGURED"],
    },
  }),
  getSubscription: defineRoute({
    method: "GET",
    path: "/api/subscriptions/[id]",
    access: "read",
    params: subscriptionParams,
    doc: { summary: "Get a subscription", description: "With its history, oldest first.", tags: ["Subscriptions"], response: okAnswer(subscriptionJson) },
  }),
  cancelSubscription: defineRoute({
    method: "POST",
    path: "/api/subscriptions/[id]/cancel",
    access: "create_payments",
    params: subscriptionParams,
    body: cancelSubscriptionBody,
    doc: {
      summary: "Cancel a subscription",
      description: "Final: nothing more is charged, and the pull contract is cancelled on chain. 409 CONFLICT when it is already canceled or ended.",
      tags: ["Subscriptions"],
      response: okAnswer(subscriptionJson, "Subscription canceled."),
      errors: ["CONFLICT"],
    },
  }),
  pauseSubscription: defineRoute({
    method: "POST",
    path: "/api/subscriptions/[id]/pause",
    access: "create_payments",
    params: subscriptionParams,
    doc: {
      summary: "Pause a subscription",
      description: "No charge while paused; periods that pass meanwhile are not charged later. 409 CONFLICT unless trialing, active or past due.",
      tags: ["Subscriptions"],
      response: okAnswer(subscriptionJson, "Subscription paused."),
      errors: ["CONFLICT"],
    },
  }),
  resumeSubscription: defineRoute({
    method: "POST",
    path: "/api/subscriptions/[id]/resume",
    access: "create_payments",
    params: subscriptionParams,
    doc: {
      summary: "Resume a paused subscription",
      description: "Charging goes on from the running period. 409 CONFLICT unless paused.",
      tags: ["Subscriptions"],
      response: okAnswer(subscriptionJson, "Subscription resumed."),
      errors: ["CONFLICT"],
    },
  }),
};

/** Relays the customer's permit (separate from the table above so merges of the list stay simple). */
export const subscriptionAuthorizeRoutes = {
  authorizeSubscription: defineRoute({
    method: "POST",
    path: "/api/subscriptions/[id]/authorize",
    access: "create_payments",
    params: subscriptionParams,
    body: authorizeSubscriptionBody,
    doc: {
      summary: "Submit a customer's permit",
      description:
        "For `authorization.method: permit`: the gateway deploys the subscription's pull contract and submits the customer's EIP-2612 permit in one transaction it pays for, so the customer signs once and pays no gas. The permit must name `pull_address` as spender and `authorization.value` as value; 409 CONFLICT once the contract is deployed, or for a subscription no longer live. Its gas counts against the same hourly budgets as gasless payments (per merchant and for all): over either, 429 RELAY_BUDGET_EXHAUSTED with `retry_after`, nothing sent; the customer then sends an `approve` of `authorization.value` to `pull_address` from their wallet instead.",
      tags: ["Subscriptions"],
      response: okAnswer(subscriptionJson, "Authorization submitted."),
      errors: ["CONFLICT", "RELAY_BUDGET_EXHAUSTED"],
    },
  }),
};
