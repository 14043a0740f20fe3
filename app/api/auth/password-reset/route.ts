import { requestPasswordReset } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/password-reset – mail a reset link; the same answer whether or not the address has an account
  POST: withApi(mailRoutes.requestPasswordReset, async ({ db, body }) => {
    await requestPasswordReset(db, body.email);
    return bare({ message: "If an account uses that address, a link to reset its password is on its way." });
  }),
});
