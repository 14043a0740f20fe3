import { resendVerificationEmail } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/verify-email/resend – mail another verification link (5 an hour per account)
  POST: withApi(mailRoutes.resendVerification, async ({ db, principal }) => {
    const { email } = await resendVerificationEmail(db, principal.userId ?? principal.merchantId);
    return bare({ message: "A new verification link is on its way.", email });
  }),
});
