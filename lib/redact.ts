const urlPattern = /\b(?:https?|wss?):\/\/[^\s"'<>`]+/gi;

/**
 * Hosted RPC URLs carry the operator's key in the path, query or userinfo (and viem puts the URL
 * in its error messages), so any URL in text bound for a log line or a merchant is cut to its
 * origin. Loopback URLs without credentials (the sandbox devnet, local receivers) stay whole.
 */
export function redactUrls(text: string): string {
  return text.replace(urlPattern, (match) => {
    try {
      const url = new URL(match);
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const credentials = Boolean(url.username || url.password);
      if (!credentials && (host === "localhost" || host === "::1" || /^127\./.test(host))) return match;
      if (!credentials && url.pathname === "/" && !url.search && !match.endsWith("?")) return match;
      return `${url.protocol}//${url.host}/…`;
    } catch {
      return "[url]";
    }
  });
}
