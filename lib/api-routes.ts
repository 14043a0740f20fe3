import { auditRoutes } from "@/lib/audit/routes";
import { authRoutes } from "@/lib/auth/routes";
import { chainRoutes } from "@/lib/chains/routes";
import { gaslessRoutes } from "@/lib/gasless/routes";
import { healthRoutes } from "@/lib/health/routes";
import { routeKeyOf, type RouteDefinition } from "@/lib/http/define-route";
import { invoiceRoutes } from "@/lib/invoices/routes";
import { receiptRoutes } from "@/lib/receipts/routes";
import { brandingRoutes } from "@/lib/branding/routes";
import { mailRoutes } from "@/lib/mail/routes";
import { memberRoutes } from "@/lib/members/routes";
import { openApiRoutes } from "@/lib/openapi/routes";
import { orderRoutes } from "@/lib/orders/routes";
import { paymentLinkRoutes } from "@/lib/payment-links/routes";
import { payoutRoutes } from "@/lib/payouts/routes";
import { subscriptionHostedRoutes } from "@/lib/subscriptions/hosted-routes";
import { subscriptionPlanLinkRoutes } from "@/lib/subscriptions/plan-link-routes";
import { subscriptionAuthorizeRoutes, subscriptionRoutes } from "@/lib/subscriptions/routes";
import { refundRoutes } from "@/lib/refunds/routes";
import { sandboxRoutes } from "@/lib/sandbox/routes";
import { transactionRoutes } from "@/lib/transactions/routes";
import { walletRoutes } from "@/lib/wallets/routes";
import { webhookRoutes } from "@/lib/webhooks/routes";

/**
 * The route table: every API operation's definition (lib/http/define-route.ts), from the domain
 * that owns it. Route files hand the same objects to withApi; the OpenAPI document and the access
 * tests read them from here.
 */
export const apiRoutes: readonly RouteDefinition[] = [
  ...Object.values(authRoutes),
  ...Object.values(auditRoutes),
  ...Object.values(mailRoutes),
  ...Object.values(memberRoutes),
  ...Object.values(chainRoutes),
  ...Object.values(walletRoutes),
  ...Object.values(orderRoutes),
  ...Object.values(refundRoutes),
  ...Object.values(payoutRoutes),
  ...Object.values(gaslessRoutes),
  ...Object.values(sandboxRoutes),
  ...Object.values(transactionRoutes),
  ...Object.values(webhookRoutes),
  ...Object.values(paymentLinkRoutes),
  ...Object.values(openApiRoutes),
  ...Object.values(healthRoutes),
  ...Object.values(subscriptionRoutes),
  ...Object.values(subscriptionAuthorizeRoutes),
  ...Object.values(subscriptionHostedRoutes),
  ...Object.values(subscriptionPlanLinkRoutes),
  ...Object.values(invoiceRoutes),
  ...Object.values(receiptRoutes),
  ...Object.values(brandingRoutes),
];

/** Route files under app/api that are not API operations, with why (the OpenAPI coverage test reads it). */
export const routesOutsideTheTable: Record<string, string> = {
  "[...path]": "the catch-all answering 404 NOT_FOUND for unknown /api paths",
  inngest: "the Inngest serve endpoint (JOBS_DRIVER=inngest), called by Inngest only",
  "auth/[...nextauth]": "next-auth's own session endpoints for the dashboard",
  "sandbox/inbox/[token] GET,PUT,PATCH,DELETE": "the same capture handler as POST /api/sandbox/inbox/{token}",
};

/** The definition of "METHOD /api/path", if there is one. */
export function findApiRoute(key: string): RouteDefinition | undefined {
  return apiRoutes.find((route) => routeKeyOf(route) === key);
}
