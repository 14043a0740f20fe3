/** Regenerates lib/client/schema.d.ts from the OpenAPI document (run: npm run client:generate). */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { clientSchemaPath, renderClientSchema } from "@/lib/openapi/client-schema";

async function main() {
  const text = await renderClientSchema();
  writeFileSync(clientSchemaPath, text);
  console.log(`wrote ${path.relative(process.cwd(), clientSchemaPath)} (${text.length} characters)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
