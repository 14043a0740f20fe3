import { z } from "zod";
import { createdAnswer, defineRoute, okAnswer } from "@/lib/http/define-route";
import { decimalString, evmAddress, timestamp } from "@/lib/http/schemas";
import { createSubscriptionBody, planJson, planParams, updatePlanBody } from "./schemas";
import { publicBrandJson } from "@/lib/branding/schemas";

export const publicPlanParams = z.object({ planId: z.string() });

export const publicPlanJson = z.object({
  id: z.string().describe("Public id, PLN-…"),
  name: z.string(),
  status: z.enum(["active", "archived"]).describe("archived: the plan takes no new subscribers"),
  shop_name: z.string(),
  brand: publicBrandJson,
  blockchain: z.object({ slug: z.string(), name: z.string(), chain_id: z.number().int().nullable() }),
  currency: z.string(),
  amount: decimalString.nullable(),
  price_amount: z.string().nullable(),
  price_currency: z.string().nullable(),
  max_amount: decimalString.describe("The most one period may take (token units)"),
  interval_days: z.number().int(),
  trial_days: z.number().int(),
  periods: z.number().int().nullable(),
  first_charge_at: timestamp.describe("When a subscription started now is first charged (the end of its trial)"),
});

export const startPlanSubscriptionBody = z.object({
  customer_address: evmAddress.describe("The customer's wallet: the only one ever debited, and the one that signs on the next page"),
  customer_email: createSubscriptionBody.shape.customer_email,
});
export type StartPlanSubscriptionBody = z.infer<typeof startPlanSubscriptionBody>;

export const planSubscriptionJson = z.object({
  id: z.string().describe("The customer's subscription, SUB-…"),
  subscribe_url: z.string().describe("Its hosted subscribe page, where the customer signs: send them there"),
});

/** A plan's public subscribe link: the merchant switches it (and the plan) on or off; the public page's two calls. */
export const subscriptionPlanLinkRoutes = {
  updatePlan: defineRoute({
    method: "PATCH",
    path: "/api/subscription-plans/[id]",
    access: "create_payments",
    params: planParams,
    body: updatePlanBody,
    doc: {
      summary: "Update a subscription plan",
      description:
        "Switches the plan's public subscribe page on or off (`public_link`; its address is `public_url`), or archives the plan (`status: archived`: no new subscribers from the API, the dashboard or the public page; its subscriptions go on) or makes it active again. The terms themselves never change: subscribers agreed to them.",
      tags: ["Subscriptions"],
      bodyExamples: {
        share: { summary: "Share the plan's public link", value: { public_link: true } },
        archive: { summary: "Take no new subscribers", value: { status: "archived" } },
      },
      response: okAnswer(planJson, "Subscription plan updated."),
    },
  }),
  getPublicPlan: defineRoute({
    method: "GET",
    path: "/api/hosted-plans/[planId]",
    access: "public",
    params: publicPlanParams,
    clientLimit: { name: "plan-view", perHour: 600 },
    doc: {
      summary: "Get a plan's public view",
      description:
        "What the plan's public page /subscribe/plan/{id} shows: the terms and the store. Public by the plan's unguessable id while its `public_link` is on; 404 otherwise, as for an unknown plan.",
      tags: ["Subscriptions", "Payment page"],
      response: okAnswer(publicPlanJson),
    },
  }),
  startPlanSubscription: defineRoute({
    method: "POST",
    path: "/api/hosted-plans/[planId]/subscriptions",
    access: "public",
    params: publicPlanParams,
    body: startPlanSubscriptionBody,
    // Public (the customer has no credential), so limited per client address: each call may create a subscription.
    clientLimit: { name: "plan-subscription", perHour: 30 },
    doc: {
      summary: "Start a subscription from a plan's public link",
      description:
        "Public: the customer gives their wallet (and optionally a mail address); the gateway creates their subscription to the plan, as `POST /api/subscriptions` would (the `subscription.created` webhook included), and answers its hosted page `subscribe_url`, where the customer signs. The same wallet and mail address within a day get the subscription still waiting for its signature rather than another (same answer, its own message). Limited per client address (30 an hour; IPv6 clients per /64); each subscription counts toward the merchant's hourly rate limit, and while 100 of the plan's subscriptions from the last day wait for their signature the link answers 429 RATE_LIMITED. 404 while `public_link` is off, 409 CONFLICT for an archived plan.",
      tags: ["Subscriptions", "Payment page"],
      bodyExamples: {
        wallet: {
          summary: "A customer's wallet and mail address",
          value: { customer_address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", customer_email: "ada@example.com" },
        },
      },
      response: createdAnswer(planSubscriptionJson, "Subscription created."),
      errors: ["CONFLICT", "INVALID_BLOCKCHAIN", "WALLET_NOT_CONFIGURED", "RATE_LIMITED"],
    },
  }),
};
