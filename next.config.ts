import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const dev = process.env.NODE_ENV === "development";

/**
 * Content-Security-Policy of the HTML pages. Next's App Router streams its payload in inline
 * scripts, so script-src needs 'unsafe-inline' without per-request nonces (which would force
 * every page dynamic); everything else is locked to this origin. connect-src allows https/wss
 * (the payment page's wallet talks to public RPCs and WalletConnect) and loopback http/ws (the
 * sandbox devnet). frame-ancestors 'none': no page may be framed (clickjacking).
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https: wss: http://127.0.0.1:* http://localhost:* ws://127.0.0.1:* ws://localhost:*",
  "frame-src https://verify.walletconnect.com https://verify.walletconnect.org",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers on every response; CSP on pages; HSTS only when the request came over https. */
export async function securityHeaders() {
  return [
    {
      source: "/:path*",
      headers: [
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "X-Frame-Options", value: "DENY" },
      ],
    },
    {
      source: "/((?!api/).*)",
      headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy }],
    },
    {
      source: "/:path*",
      has: [{ type: "header" as const, key: "x-forwarded-proto", value: "https" }],
      headers: [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }],
    },
  ];
}

const nextConfig: NextConfig = {
  // Lets parallel builds use separate output folders (give `next start` the same NEXT_DIST_DIR).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // DESIGN: every path answers with and without its trailing slash, with no redirect.
  skipTrailingSlashRedirect: true,
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "hardhat", "solc"],
  poweredByHeader: false,
  // `npm test` runs `tsc --noEmit` over the whole project (tests included) before building.
  typescript: { ignoreBuildErrors: true },
  headers: securityHeaders,
};

// next-intl without i18n routing (i18n/request.ts). Messages are precompiled at build time, so the
// pages' bundles carry no ICU message parser (the pay page's first-load JS, bench/pay-page.ts).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", sourceLocale: "en", precompile: true } },
});

export default withNextIntl(nextConfig);
