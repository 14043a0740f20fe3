import { ok } from "@/lib/http/envelope";
import { requestCustomerLocale } from "@/lib/i18n/locales";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";
import { setReceiptEmail } from "@/lib/receipts/receipt-mail";
import { receiptRoutes } from "@/lib/receipts/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/pay/{order_id}/receipt-email/ – public: where the receipt and refund notices go
  PUT: withApi(receiptRoutes.setReceiptEmail, async ({ db, params, body, request }) =>
    ok(await setReceiptEmail(db, params.orderId, body.email, body.locale ?? requestCustomerLocale(request)), "Receipt address saved."),
  ),
});
