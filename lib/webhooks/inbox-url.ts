import { env } from "@/lib/env";

/** The merchant's sandbox capture URL, at `origin` (the dashboard passes the address in use) or APP_URL. */
export function inboxUrl(token: string, origin: string = env.APP_URL): string {
  return `${origin.replace(/\/+$/, "")}/api/sandbox/inbox/${token}/`;
}
