import "server-only";
import { validationError } from "@/lib/http/errors";
import { assertSafeWebhookUrl, UnsafeUrlError } from "./url-safety";

/** Save-time URL check: a refused URL is 400 VALIDATION_ERROR on `url`. */
export async function checkEndpointUrl(raw: string): Promise<string> {
  try {
    return await assertSafeWebhookUrl(raw);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw validationError({ url: [error.message] });
    throw error;
  }
}
