import { deleteLogo, saveLogo } from "@/lib/branding/branding";
import { brandingRoutes } from "@/lib/branding/routes";
import { ok } from "@/lib/http/envelope";
import { routeMethods } from "@/lib/http/route-methods";
import { withApi } from "@/lib/http/with-api";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PUT /api/branding/logo/ – validated and re-encoded as PNG
  PUT: withApi(brandingRoutes.uploadLogo, async ({ db, body, principal }) => ok(await saveLogo(db, principal.merchantId, body.image), "Logo saved.")),
  // DELETE /api/branding/logo/
  DELETE: withApi(brandingRoutes.deleteLogo, async ({ db, principal }) => ok(await deleteLogo(db, principal.merchantId), "Logo removed.")),
});
