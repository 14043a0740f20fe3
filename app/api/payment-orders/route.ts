import { created } from "@/lib/http/envelope";
import { page } from "@/lib/http/pagination";
import { withApi } from "@/lib/http/with-api";
import { createOrder } from "@/lib/orders/create-order";
import { listOrders } from "@/lib/orders/list-orders";
import { createOrderBody, listOrdersQuery } from "@/lib/orders/schemas";
import { serializeOrder, serializeOrderListItem } from "@/lib/orders/serialize";

// POST /api/payment-orders/ – create a payment order with its own deposit address
export const POST = withApi({ route: "POST /api/payment-orders", body: createOrderBody, countInStatement: true }, async ({ db, body, principal, meter }) =>
  created(serializeOrder(await createOrder(db, principal.merchantId, body, { meter }))),
);

// GET /api/payment-orders/ – the merchant's orders: filter by status, blockchain, currency; sort by created_at, amount, status
export const GET = withApi({ route: "GET /api/payment-orders", query: listOrdersQuery }, async ({ db, url, query, principal }) => {
  const { rows, count } = await listOrders(db, principal.merchantId, query);
  return page(url, query, count, rows.map(serializeOrderListItem));
});
