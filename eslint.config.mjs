import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    // Tests read dynamic JSON response bodies; typing each one adds noise, not safety.
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    ignores: [
      ".next*/**",
      "node_modules/**",
      ".data/**",
      "drizzle/**",
      "devnet/cache/**",
      "devnet/artifacts/**",
      "next-env.d.ts",
      "lib/client/schema.d.ts",
      "test-results/**",
      "playwright-report/**",
      "integrations/medusa/**",
    ],
  },
];

export default config;
