import { verifyEmail } from "@/lib/mail/account-emails";
import { mailRoutes } from "@/lib/mail/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/verify-email – spend a verification link: the address is verified
  POST: withApi(mailRoutes.verifyEmail, async ({ db, body }) => {
    const merchant = await verifyEmail(db, body.token);
    return bare({ email: merchant.email, email_verified_at: merchant.emailVerifiedAt!.toISOString() });
  }),
});
