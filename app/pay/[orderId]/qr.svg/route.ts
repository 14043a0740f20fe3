import { getDb } from "@/lib/db/client";
import { routeMethods } from "@/lib/http/route-methods";
import { describeError, log } from "@/lib/log";
import { parseOrderKey } from "@/lib/orders/get-order-or-throw";
import { orderPaymentUri, qrSvg } from "@/lib/orders/qr-code";
import { findOrderByPublicId } from "@/lib/orders/queries";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

// GET /pay/{order_id}/qr.svg – public QR code of an order's payment URI (no credential: the payment page shows it)
async function qrCode(_request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const { orderId } = await context.params;
  // Only the unguessable public id: numeric ids are sequential and would enumerate everyone's orders.
  const key = parseOrderKey(orderId);
  if (!key || !("orderId" in key)) return plain(404, "Not found");
  try {
    const order = await findOrderByPublicId(await getDb(), key.orderId);
    const uri = order ? orderPaymentUri(order) : null;
    if (!uri) return plain(404, "Not found");
    return new Response(await qrSvg(uri), {
      status: 200,
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        // An order's deposit address, chain and amount never change, so neither does its QR code.
        "cache-control": "public, max-age=86400, immutable",
        "x-content-type-options": "nosniff",
        // The SVG is only paths; forbid scripts and loads should it ever be opened directly.
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      },
    });
  } catch (error) {
    log.error("qr code failed", { order_id: orderId, ...describeError(error) });
    return plain(500, "Internal error");
  }
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: qrCode });
