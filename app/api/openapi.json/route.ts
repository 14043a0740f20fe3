import { bare } from "@/lib/http/envelope";
import { withApi } from "@/lib/http/with-api";
import { buildOpenApiDocument } from "@/lib/openapi/document";

let document: Record<string, unknown> | undefined;

// GET /api/openapi.json – the OpenAPI 3.1 document of this API, generated from the route table and its zod schemas
export const GET = withApi({ route: "GET /api/openapi.json" }, async ({ url }) => {
  document ??= buildOpenApiDocument();
  const body = { ...document, servers: [{ url: url.origin, description: "This deployment" }] };
  return { ...bare(body), headers: { "cache-control": "public, max-age=300" } };
});
