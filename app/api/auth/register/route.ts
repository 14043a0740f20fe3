import { registerMerchant } from "@/lib/auth/register-merchant";
import { authRoutes } from "@/lib/auth/routes";
import { bare } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/auth/register – create a merchant account (DESIGN: 100 registrations an hour per client address)
  POST: withApi(authRoutes.register, async ({ db, body }) => {
    const merchant = await registerMerchant(db, body);
    return bare(
      {
        user: { id: merchant.id, username: merchant.username, email: merchant.email, shop_name: merchant.shopName },
        webhook_secret: merchant.webhookSecret,
      },
      201,
    );
  }),
});
