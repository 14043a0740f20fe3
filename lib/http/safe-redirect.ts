/**
 * The one rule for a redirect target that comes from a request (issue 49 item 4): the sign-in's
 * callbackUrl, the language switcher's `return`, next-auth's callback URL. Every such target goes
 * through `safeReturnPath`; tests/unit/http/one-return-rule.test.ts fails on a second rule.
 */

const maxReturnLength = 2048;
const resolutionBase = "http://gateway.invalid";

/**
 * Printable ASCII, no space and no "\": browsers drop tabs and newlines from URLs and read "\" as
 * "/", fullwidth and other lookalike characters are folded by some decoders, a control character
 * in a Location header makes building the Response throw (a 500), and a target of ours never
 * needs any of them (a browser sends non-ASCII percent-encoded).
 */
const printableAscii = /^[\u0021-\u005b\u005d-\u007e]*$/;

/**
 * A path of this site as we make them: "/" and unreserved or sub-delimiter characters, with no
 * empty segment ("//" is another host to a browser) and no percent-escape (an encoded "/", "\",
 * "." or control that a proxy or a second decode would turn back into one).
 */
const plainPath = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

function isPlainPath(path: string): boolean {
  return plainPath.test(path) && !path.includes("//");
}

/** The path, query and fragment of `value` (a path, or with `origin` also an absolute URL on that origin); null when it names another site. */
function candidatePath(value: string, origin: string | undefined): string | null {
  if (value.startsWith("/")) return value;
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username || url.password) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * A same-site path to send the browser to, taken from a request, or `fallback`. Whatever the input
 * (any type, any length, encoded or not), the answer is a path of this site made only of printable
 * ASCII: safe in a Location header and in a link, never another host, never a scheme.
 *
 * The input must be printable ASCII; its path part a plain path (above). It is then resolved the
 * way a browser would ("/a/..//x" and "/.//x" become "//x") and the resolved path must be plain
 * too: the decision is taken on the value handed back, so the check and the answer cannot
 * disagree. `origin` (next-auth's redirect callback): an absolute URL on that origin is taken as
 * its path; any other absolute URL falls back.
 */
export function safeReturnPath(value: unknown, { fallback = "/", origin }: { fallback?: string; origin?: string } = {}): string {
  if (typeof value !== "string" || value.length === 0 || value.length > maxReturnLength || !printableAscii.test(value)) return fallback;
  const candidate = candidatePath(value, origin);
  if (candidate === null || !isPlainPath(candidate.split(/[?#]/, 1)[0]!)) return fallback;
  let url: URL;
  try {
    url = new URL(candidate, resolutionBase);
  } catch {
    return fallback;
  }
  if (url.origin !== resolutionBase || !isPlainPath(url.pathname)) return fallback;
  const resolved = `${url.pathname}${url.search}${url.hash}`;
  return printableAscii.test(resolved) ? resolved : fallback;
}

/**
 * next-auth's redirect callback (where it sends the browser after signing in or out: redirectTo, a
 * callbackUrl parameter or cookie, the Referer): the same rule, as an absolute URL on `baseUrl`.
 */
export function sameSiteRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  return `${baseUrl}${safeReturnPath(url, { fallback: "/dashboard", origin: baseUrl })}`;
}

/** The request header the proxy fills with a dashboard page's own path and query (proxy.ts). */
export const requestPathHeader = "x-request-path";

/**
 * Where a signed-out visit to a dashboard page is sent: the sign-in page with the page it asked
 * for as its `callbackUrl` (the same rule; anything else is the overview), so signing in returns there.
 */
export function signInPathFor(requested: unknown): string {
  const back = safeReturnPath(requested, { fallback: "/dashboard" });
  return back === "/dashboard" ? "/sign-in" : `/sign-in?callbackUrl=${encodeURIComponent(back)}`;
}
