/**
 * Content-Security-Policy of the HTML pages. Next's App Router streams its payload in inline
 * scripts, so script-src needs 'unsafe-inline' without per-request nonces (which would force
 * every page dynamic); everything else is locked to this origin. connect-src allows https (the
 * payment page's wallet reads public RPCs) and loopback http/ws (the sandbox devnet).
 * frame-ancestors 'none': no page may be framed (clickjacking).
 *
 * With `walletConnect` (the payment pages when WALLETCONNECT_PROJECT_ID is set, set at run time by
 * proxy.ts), also what WalletConnect and its QR modal need: the relay's WebSocket, the Verify API's
 * frame, and the modal's fonts (its wallet list and logos are https fetches and images, already
 * allowed). Without it no page may open a WebSocket beyond loopback, nor frame anything.
 */
export function contentSecurityPolicy(options: { dev: boolean; walletConnect: boolean }): string {
  const wc = options.walletConnect;
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    `font-src 'self' data:${wc ? " https://fonts.reown.com" : ""}`,
    `connect-src 'self' https: http://127.0.0.1:* http://localhost:* ws://127.0.0.1:* ws://localhost:*${wc ? " wss://relay.walletconnect.com wss://relay.walletconnect.org" : ""}`,
    wc ? "frame-src https://verify.walletconnect.com https://verify.walletconnect.org" : "frame-src 'none'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Whether WalletConnect is configured (lib/env.ts's rule: a non-empty WALLETCONNECT_PROJECT_ID), read without loading lib/env. */
export function walletConnectConfigured(environment: Record<string, string | undefined> = process.env): boolean {
  return (environment.WALLETCONNECT_PROJECT_ID ?? "") !== "";
}
