"use server";

import { publicAction } from "@/lib/auth/authed-action";
import { requestPasswordReset } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { passwordResetRequestBody } from "@/lib/mail/schemas";

/** Same use-case and per-address limit as POST /api/auth/password-reset: the same answer whether or not the address has an account. */
export const requestPasswordResetAction = publicAction(
  passwordResetRequestBody,
  async (input, { db }) => {
    await requestPasswordReset(db, input.email);
    return { sent: true };
  },
  { clientLimit: mailRoutes.requestPasswordReset.clientLimit },
);
