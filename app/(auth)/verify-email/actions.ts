"use server";

import { publicAction } from "@/lib/auth/authed-action";
import { verifyEmail } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { verifyEmailBody } from "@/lib/mail/schemas";

/** Same use-case and limit as POST /api/auth/verify-email. */
export const verifyEmailAction = publicAction(
  verifyEmailBody,
  async (input, { db }) => {
    const merchant = await verifyEmail(db, input.token);
    return { email: merchant.email };
  },
  { clientLimit: mailRoutes.verifyEmail.clientLimit },
);
