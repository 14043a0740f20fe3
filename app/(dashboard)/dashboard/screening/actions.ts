"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { notifyDeliveriesDue } from "@/lib/jobs/kick";
import { screeningAction } from "@/lib/screening/policy";
import { releaseHeldPayment } from "@/lib/screening/release-payment";
import { setScreeningPolicy } from "@/lib/screening/set-policy";

/** Releases a payment screening holds: owners and admins only; audited; confirmed by the next lifecycle pass. */
export const releaseHeldPaymentAction = authedAction(
  z.object({ order_id: z.string().min(1).max(80) }),
  async ({ order_id }, { db, merchantId }) => {
    const released = await releaseHeldPayment(db, merchantId, order_id);
    await notifyDeliveriesDue();
    return released;
  },
  { permission: "manage_account" },
);

export const setScreeningPolicyAction = authedAction(
  z.object({ on_match: screeningAction }),
  async ({ on_match }, { db, merchantId }) => {
    return { on_match: await setScreeningPolicy(db, merchantId, on_match) };
  },
  { permission: "manage_account" },
);
