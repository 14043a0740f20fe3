"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { createPlan, serializePlan, updatePlan } from "@/lib/subscriptions/plans";
import { createPlanBody, createSubscriptionBody } from "@/lib/subscriptions/schemas";
import { serializeSubscription } from "@/lib/subscriptions/serialize";
import { changeSubscription, createSubscription } from "@/lib/subscriptions/subscriptions";

/** The plan form's fields as the API body: empty optional fields left out, day counts as numbers. */
const planFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const number = (v: unknown) => (text(v) === undefined ? undefined : Number(v));
  const [blockchain, currency] = String(f.token ?? "").split(":");
  return {
    name: f.name,
    blockchain,
    currency,
    amount: text(f.amount),
    interval_days: number(f.interval_days),
    trial_days: number(f.trial_days),
    grace_days: number(f.grace_days),
    past_due_days: number(f.past_due_days),
    periods: number(f.periods),
  };
};

/** Same use-case as POST /api/subscription-plans/. */
export const createPlanAction = authedAction(
  z.preprocess(planFromForm, createPlanBody),
  async (input, { db, merchantId }) => {
    const plan = serializePlan(await createPlan(db, merchantId, input));
    return { id: plan.id, name: plan.name };
  },
  { permission: "create_payments" },
);

/** Same use-case as PATCH /api/subscription-plans/{id}/ with `public_link`: shares the plan's public subscribe page, or stops. */
export const setPlanPublicLinkAction = authedAction(
  z.object({ id: z.string().min(1).max(64), public_link: z.enum(["on", "off"]) }),
  async ({ id, public_link }, { db, merchantId }) => {
    const plan = serializePlan(await updatePlan(db, merchantId, id, { public_link: public_link === "on" }));
    return { id: plan.id, public_url: plan.public_url };
  },
  { permission: "create_payments" },
);

/** Same use-case as POST /api/subscriptions/: answers the hosted subscribe page to send the customer. */
export const createSubscriptionAction = authedAction(
  z.preprocess((o) => {
    const f = (o ?? {}) as Record<string, unknown>;
    return { ...f, customer_email: typeof f.customer_email === "string" && f.customer_email.trim() !== "" ? f.customer_email : undefined };
  }, createSubscriptionBody),
  async (input, { db, merchantId }) => {
    const { subscription, planId } = await createSubscription(db, merchantId, input);
    const view = serializeSubscription(subscription, planId);
    return { id: view.id, subscribe_path: `/subscribe/${view.id}` };
  },
  { permission: "create_payments" },
);

const changeInput = z.object({ id: z.string().min(1).max(64), reason: z.string().trim().max(500).optional() });

/** Same use-cases as POST /api/subscriptions/{id}/cancel|pause|resume/. */
export const cancelSubscriptionAction = authedAction(
  changeInput,
  async ({ id, reason }, { db, merchantId }) => {
    const view = await changeSubscription(db, merchantId, id, "cancel", reason || null);
    return { id: view.id, status: view.status };
  },
  { permission: "create_payments" },
);

export const pauseSubscriptionAction = authedAction(
  changeInput,
  async ({ id }, { db, merchantId }) => {
    const view = await changeSubscription(db, merchantId, id, "pause", null);
    return { id: view.id, status: view.status };
  },
  { permission: "create_payments" },
);

export const resumeSubscriptionAction = authedAction(
  changeInput,
  async ({ id }, { db, merchantId }) => {
    const view = await changeSubscription(db, merchantId, id, "resume", null);
    return { id: view.id, status: view.status };
  },
  { permission: "create_payments" },
);
