"use server";

import { publicAction } from "@/lib/auth/authed-action";
import { confirmPasswordReset } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { passwordResetConfirmBody } from "@/lib/mail/schemas";

/** Same use-case and limit as POST /api/auth/password-reset/confirm: every session is signed out. */
export const confirmPasswordResetAction = publicAction(
  passwordResetConfirmBody,
  async (input, { db }) => {
    await confirmPasswordReset(db, input.token, input.password);
    return { changed: true };
  },
  { clientLimit: mailRoutes.confirmPasswordReset.clientLimit },
);
