import { getDb } from "@/lib/db/client";
import { routeMethods } from "@/lib/http/route-methods";
import { describeError, log } from "@/lib/log";
import { checkoutView } from "@/lib/orders/checkout-view";
import { getPublicOrder } from "@/lib/orders/public-order";
import { qrSvg } from "@/lib/orders/qr-code";

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

// GET /pay/{order_id}/qr.svg – public QR code of what an open order still asks for (EIP-681, amount included; no
// credential: the payment page shows it). Confirmed, expired and failed orders have none: nothing is to be sent.
async function qrCode(_request: Request, context: { params: Promise<{ orderId: string }> }): Promise<Response> {
  const { orderId } = await context.params;
  try {
    // Only the unguessable public id (getPublicOrder): numeric ids are sequential and would enumerate everyone's orders.
    const order = await getPublicOrder(await getDb(), orderId);
    // Only the payment URI is used here, none of the page's words: the message keys stand in for them.
    const uri = order ? checkoutView(order, (key) => key).due?.paymentUri : null;
    if (!uri) return plain(404, "Not found");
    return new Response(await qrSvg(uri), {
      status: 200,
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        // The amount due falls with each partial payment and the code goes once nothing is due.
        "cache-control": "no-store",
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
