import "server-only";
import { headers } from "next/headers";
import { clientIpOf } from "@/lib/http/with-api";

/** The client address of the current server action, by the same rule the API uses. */
export async function actionClientIp(): Promise<string> {
  return clientIpOf(new Request("http://localhost/", { headers: await headers() }));
}

/** Only same-site paths are followed after sign-in (no open redirect). */
export { safeCallbackPath } from "@/lib/http/safe-redirect";
