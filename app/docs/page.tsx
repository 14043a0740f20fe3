import type { Metadata } from "next";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: { absolute: "API reference · Payment Gateway" } };

// /docs – the API reference, rendered from GET /api/openapi.json
export default function ApiReferencePage() {
  return (
    <main>
      <ApiReference />
    </main>
  );
}
