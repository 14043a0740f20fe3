const ORIGIN = "http://gateway.invalid";

/** Characters a browser drops or rewrites (controls, whitespace, "\"), raw or percent-encoded, and encoded "/" . */
const UNSAFE_RAW = /[\u0000-\u0020\u007f\\]/;
const UNSAFE_ENCODED = /%(?:[01][0-9a-f]|20|7f|2f|5c)/i;

/**
 * A same-site path to go to after sign-in, or "/dashboard". Browsers drop tabs and newlines from
 * URLs and treat "\" like "/", so "/%09/evil.example" (decoded "/\t/evil.example") and "/\evil"
 * would leave the site. The decision is taken on the value we hand back: the input is resolved the
 * way a browser would ("/.//evil" becomes "//evil", "/a/..//evil" too) and the resolved path must
 * itself be a plain same-site path, so the check and the answer can never disagree.
 */
export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!isPlainLocalPath(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== ORIGIN || url.username || url.password) return fallback;
  const resolved = `${url.pathname}${url.search}${url.hash}`;
  return isPlainLocalPath(resolved) ? resolved : fallback;
}

function isPlainLocalPath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  if (UNSAFE_RAW.test(path)) return false;
  // Encoded separators and controls: a proxy or a later decode could turn them into "//" or "/\".
  const pathname = path.split(/[?#]/, 1)[0] ?? path;
  return !UNSAFE_ENCODED.test(pathname);
}
