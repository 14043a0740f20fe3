import { env } from "@/lib/env";

/**
 * The origin the merchant is using right now: the request's Host, with `X-Forwarded-Proto`/`-Host`
 * only behind a trusted proxy (`TRUST_PROXY` > 0). Null when the request has no usable Host.
 */
export function requestOrigin(headers: Headers, trustProxy = env.TRUST_PROXY): string | null {
  const forwarded = (name: string) => (trustProxy > 0 ? headers.get(name)?.split(",")[0]?.trim() || null : null);
  const host = forwarded("x-forwarded-host") ?? headers.get("host");
  if (!host) return null;
  const proto = forwarded("x-forwarded-proto") ?? "http";
  try {
    const url = new URL(`${proto}://${host}`);
    return url.origin;
  } catch {
    return null;
  }
}

export interface OriginCheck {
  /** Where the sandbox's own URLs (inbox, test endpoints) should point: the address in use. */
  origin: string;
  /** APP_URL's origin: what payment URLs, link URLs and emails use. */
  appOrigin: string;
  /** APP_URL does not match the address in use: customers' links will point elsewhere. */
  mismatch: boolean;
}

/** The address in use compared with APP_URL (falls back to APP_URL when the request has no Host). */
export function checkOrigin(headers: Headers, appUrl = env.APP_URL, trustProxy = env.TRUST_PROXY): OriginCheck {
  const appOrigin = new URL(appUrl).origin;
  const origin = requestOrigin(headers, trustProxy) ?? appOrigin;
  return { origin, appOrigin, mismatch: origin !== appOrigin };
}
