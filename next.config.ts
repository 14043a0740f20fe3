import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { contentSecurityPolicy as buildContentSecurityPolicy } from "./lib/http/content-security-policy";

const dev = process.env.NODE_ENV === "development";

/** The pages' CSP (lib/http/content-security-policy.ts); the payment and subscribe pages get theirs from proxy.ts at run time. */
const contentSecurityPolicy = buildContentSecurityPolicy({ dev, walletConnect: false });

/**
 * Headers on every response; CSP on pages; HSTS only when the request came over https. Not the
 * CSP of /pay/… and /subscribe/… (the pages that offer WalletConnect): proxy.ts sets it per request, with WalletConnect's sources only when
 * WALLETCONNECT_PROJECT_ID is set where the server runs (these headers are fixed at build time).
 */
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
      source: "/((?!api/|pay/|subscribe/).*)",
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
  // @base-org/account: reached (never run) on the server through wagmi's connector exports in the
  // payment page's wallet chunk; its Node build imports optional packages this app does not install.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "hardhat", "solc", "@base-org/account", "pdfkit"],
  poweredByHeader: false,
  // `npm test` type-checks the whole project, tests included (`npm run typecheck`), before building.
  typescript: { ignoreBuildErrors: true },
  headers: securityHeaders,
  // Turbopack writes its build cache (~400 MB, 30 s on this 2-core machine) after every build; CI builds a
  // fresh clone once and never reads it back, so it skips the write there. Locally it makes a rebuild 2x faster.
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI },
};

// next-intl without i18n routing (i18n/request.ts). Messages are precompiled at build time, so the
// pages' bundles carry no ICU message parser (the pay page's first-load JS, bench/pay-page.ts).
const withNextIntl = createNextIntlPlugin({
  requestConfig: "./i18n/request.ts",
  experimental: { messages: { path: "./messages", format: "json", locales: "infer", sourceLocale: "en", precompile: true } },
});

export default withNextIntl(nextConfig);
