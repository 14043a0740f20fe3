import "server-only";
import { headers } from "next/headers";
import { requestOrigin } from "@/lib/dashboard/request-origin";
import { env } from "@/lib/env";

/** The placeholder the docs' examples are written with; shown as the address the reader is using. */
export const exampleOrigin = "http://localhost:3000";

/** This instance as the reader reached it (the request's origin, like the sandbox pages), else APP_URL. */
export async function docsBaseUrl(): Promise<string> {
  return requestOrigin(await headers()) ?? new URL(env.APP_URL).origin;
}

/** An example with this instance's base URL in place of the placeholder. */
export function withBaseUrl(text: string, baseUrl: string): string {
  return text.replaceAll(exampleOrigin, baseUrl);
}
