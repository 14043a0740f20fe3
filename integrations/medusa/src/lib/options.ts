import { MedusaError } from "@medusajs/framework/utils";

/** The provider's options in medusa-config (see README.md). */
export interface GatewayProviderOptions {
  /** The gateway's base URL, e.g. https://pay.example.com. */
  gatewayUrl: string;
  /** An API key with `create_payments` (sk_live_… or sk_test_…). */
  apiKey: string;
  /** The secret (whsec_…) of the gateway webhook endpoint pointed at /hooks/payment/gateway_<id>; during a rotation, both. */
  webhookSecret: string | string[];
  /** The chain and token the order starts on (default base, USDC). */
  blockchain?: string;
  currency?: string;
  /** More (blockchain, token) pairs the customer may choose on the payment page. */
  acceptedMethods?: Array<{ blockchain: string; currency: string }>;
  /** How long the customer has to pay (default 30 minutes). */
  paymentWindowMinutes?: number;
  /** Where the payment page sends the customer once paid, e.g. your storefront's order page. */
  redirectUrl?: string;
  /** How far a webhook's timestamp may be from this server's clock (default 300 s). */
  webhookToleranceSeconds?: number;
}

export interface ResolvedOptions {
  gatewayUrl: string;
  apiKey: string;
  webhookSecrets: string[];
  blockchain: string;
  currency: string;
  acceptedMethods: Array<{ blockchain: string; currency: string }>;
  paymentWindowMs: number | null;
  redirectUrl: string | null;
  webhookToleranceSeconds: number;
}

const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, `Payment Gateway provider: ${message}`);

function httpUrl(value: unknown, name: string): string {
  if (typeof value !== "string") throw invalid(`${name} is required (an http(s) URL).`);
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return value;
  } catch {
    // reported below
  }
  throw invalid(`${name} must be an http(s) URL, got ${JSON.stringify(value)}.`);
}

export function resolveOptions(options: Record<string, unknown>): ResolvedOptions {
  const gatewayUrl = httpUrl(options.gatewayUrl, "gatewayUrl");
  if (typeof options.apiKey !== "string" || !/^sk_(live|test)_/.test(options.apiKey))
    throw invalid("apiKey must be a gateway API key (sk_live_… or sk_test_…) with create_payments.");
  const secrets = (Array.isArray(options.webhookSecret) ? options.webhookSecret : [options.webhookSecret]).filter(
    (s): s is string => typeof s === "string" && s.length > 0,
  );
  if (secrets.length === 0 || secrets.some((s) => !s.startsWith("whsec_")))
    throw invalid("webhookSecret must be the webhook endpoint's secret (whsec_…), or a list of them.");
  const window = options.paymentWindowMinutes;
  if (window !== undefined && (typeof window !== "number" || !(window > 0))) throw invalid("paymentWindowMinutes must be a positive number.");
  const tolerance = options.webhookToleranceSeconds ?? 300;
  if (typeof tolerance !== "number" || !(tolerance > 0)) throw invalid("webhookToleranceSeconds must be a positive number.");
  const methods = options.acceptedMethods ?? [];
  if (!Array.isArray(methods) || methods.some((m) => typeof m?.blockchain !== "string" || typeof m?.currency !== "string")) {
    throw invalid("acceptedMethods must be a list of { blockchain, currency }.");
  }
  return {
    gatewayUrl,
    apiKey: options.apiKey,
    webhookSecrets: secrets,
    blockchain: typeof options.blockchain === "string" ? options.blockchain : "base",
    currency: typeof options.currency === "string" ? options.currency : "USDC",
    acceptedMethods: methods as ResolvedOptions["acceptedMethods"],
    paymentWindowMs: typeof window === "number" ? Math.round(window * 60_000) : null,
    redirectUrl: options.redirectUrl === undefined ? null : httpUrl(options.redirectUrl, "redirectUrl"),
    webhookToleranceSeconds: tolerance,
  };
}
