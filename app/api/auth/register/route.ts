import { registerMerchant } from "@/lib/auth/register-merchant";
import { registerBody } from "@/lib/auth/schemas";
import { bare } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// POST /api/auth/register – create a merchant account (DESIGN: 100 registrations an hour per client address)
export const POST = withApi(
  { route: "POST /api/auth/register", body: registerBody, clientLimit: { name: "register", perHour: 100 } },
  async ({ db, body }) => {
    const merchant = await registerMerchant(db, body);
    return bare(
      {
        user: { id: merchant.id, username: merchant.username, email: merchant.email, shop_name: merchant.shopName },
        webhook_secret: merchant.webhookSecret,
      },
      201,
    );
  },
);
