/**
 * Kept apart from nav-links.tsx (a client module): the layout, a server component, reads this list
 * to translate each label, and a client module's exports reach the server only as references.
 */
/** The dashboard's sections; `label` names the key of its text in messages/*.json › dashboard.nav. */
export const navLinks = [
  { href: "/dashboard", label: "overview" },
  { href: "/dashboard/orders", label: "orders" },
  { href: "/dashboard/links", label: "links" },
  { href: "/dashboard/subscriptions", label: "subscriptions" },
  { href: "/dashboard/payouts", label: "payouts" },
  { href: "/dashboard/transactions", label: "transactions" },
  { href: "/dashboard/wallets", label: "wallets" },
  { href: "/dashboard/api-keys", label: "apiKeys" },
  { href: "/dashboard/webhooks", label: "webhooks" },
  { href: "/dashboard/sandbox", label: "sandbox", sandboxOnly: true },
  { href: "/dashboard/outbox", label: "outbox", sandboxOnly: true },
  { href: "/dashboard/team", label: "team" },
  { href: "/dashboard/settings", label: "settings" },
  { href: "/dashboard/sessions", label: "sessions" },
  { href: "/dashboard/audit-log", label: "auditLog" },
  { href: "/dashboard/screening", label: "screening" },
  { href: "/dashboard/currencies", label: "currencies" },
  { href: "/docs", label: "docs" },
  { href: "/dashboard/invoices", label: "invoices" },
  { href: "/dashboard/branding", label: "branding" },
] as const;

export type NavLabel = (typeof navLinks)[number]["label"];
