import { env } from "@/lib/env";

/** The merchant's sandbox capture URL. */
export function inboxUrl(token: string): string {
  return `${env.APP_URL.replace(/\/+$/, "")}/api/sandbox/inbox/${token}/`;
}
