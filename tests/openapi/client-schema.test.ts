import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { clientSchemaPath, renderClientSchema } from "@/lib/openapi/client-schema";

test("lib/client/schema.d.ts is generated from the current document (run npm run client:generate)", async () => {
  const committed = readFileSync(clientSchemaPath, "utf8");
  const fresh = await renderClientSchema();
  expect(committed === fresh, "lib/client/schema.d.ts is stale: run `npm run client:generate`").toBe(true);
  expect(fresh).toContain('"/api/payment-orders": {');
  expect(fresh).toContain("Order: {");
});
