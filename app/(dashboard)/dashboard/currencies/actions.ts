"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { setMerchantToken } from "@/lib/tokens/merchant-tokens";

/** Switches a currency on or off on one chain for the store (owners and admins; audited). */
export const setCurrencyAction = authedAction(
  z.object({ blockchain: z.string().min(1).max(40), currency: z.string().min(1).max(20), enabled: z.enum(["true", "false"]).transform((v) => v === "true") }),
  async (input, { db, merchantId }) => setMerchantToken(db, merchantId, input),
  { permission: "manage_account" },
);
