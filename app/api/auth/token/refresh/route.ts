import { refreshBody } from "@/lib/auth/schemas";
import { refreshTokens } from "@/lib/auth/sessions";
import { bare } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";

// POST /api/auth/token/refresh/ – rotate a refresh token into a new access/refresh pair
export const POST = withApi({ route: "POST /api/auth/token/refresh", body: refreshBody }, async ({ db, body }) =>
  bare(await refreshTokens(db, body.refresh)),
);
