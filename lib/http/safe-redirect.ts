/**
 * A same-site path to go to after sign-in, or "/dashboard". Browsers drop tabs and newlines from
 * URLs and treat "\" like "/", so "/%09/evil.example" (decoded "/\t/evil.example") and "/\evil"
 * would leave the site; the value is resolved the way a browser would and must stay on our origin.
 */
export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 2048) return fallback;
  // Control characters, whitespace and backslashes have no place in our own paths.
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return fallback;
  if (value.startsWith("//")) return fallback;
  const base = "http://gateway.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
