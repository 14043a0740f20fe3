import { getBranding, saveBranding } from "@/lib/branding/branding";
import { brandingRoutes } from "@/lib/branding/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/branding/ – the store's name, colour, contacts and logo as customers see them
  GET: withApi(brandingRoutes.getBranding, async ({ db, principal }) => ok(await getBranding(db, principal.merchantId))),
  // PUT /api/branding/ – name, accent colour (contrast checked) and support contact
  PUT: withApi(brandingRoutes.updateBranding, async ({ db, body, principal }) => ok(await saveBranding(db, principal.merchantId, body), "Branding saved.")),
});
