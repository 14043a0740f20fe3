import { confirmPasswordReset } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/password-reset/confirm – spend a reset link: new password, every session revoked
  POST: withApi(mailRoutes.confirmPasswordReset, async ({ db, body }) => {
    await confirmPasswordReset(db, body.token, body.password);
    return bare({ message: "Password changed. Every session was signed out: log in with the new password." });
  }),
});
