"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { resendVerificationEmail } from "@/lib/mail/account-emails";

/** Same use-case and per-account limit as POST /api/auth/verify-email/resend/. */
export const resendVerificationAction = authedAction(z.object({}), async (_input, { db, userId }) => resendVerificationEmail(db, userId), {
  permission: "login",
});
