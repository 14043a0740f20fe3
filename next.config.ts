import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Lets parallel builds use separate output folders (give `next start` the same NEXT_DIST_DIR).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // DESIGN: every path answers with and without its trailing slash, with no redirect.
  skipTrailingSlashRedirect: true,
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "hardhat", "solc"],
  poweredByHeader: false,
  // `npm test` runs `tsc --noEmit` over the whole project (tests included) before building.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
