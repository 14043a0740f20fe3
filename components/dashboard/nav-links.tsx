"use client";

import { usePathname } from "next/navigation";

const links = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/orders", label: "Orders" },
  { href: "/dashboard/links", label: "Payment links" },
  { href: "/dashboard/subscriptions", label: "Subscriptions" },
  { href: "/dashboard/payouts", label: "Payouts" },
  { href: "/dashboard/transactions", label: "Transactions" },
  { href: "/dashboard/wallets", label: "Wallets" },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/sandbox", label: "Sandbox", sandboxOnly: true },
  { href: "/dashboard/outbox", label: "Outbox", sandboxOnly: true },
  { href: "/dashboard/team", label: "Team" },
  { href: "/dashboard/settings", label: "Settings" },
  { href: "/dashboard/sessions", label: "Sessions" },
  { href: "/dashboard/audit-log", label: "Audit log" },
  { href: "/dashboard/screening", label: "Screening" },
  { href: "/dashboard/currencies", label: "Currencies" },
  { href: "/docs", label: "Docs" },
  { href: "/dashboard/invoices", label: "Invoices" },
  { href: "/dashboard/branding", label: "Branding" },
];

export function NavLinks({ sandbox }: { sandbox: boolean }) {
  const path = usePathname();
  return (
    <ul>
      {links
        .filter((l) => sandbox || !l.sandboxOnly)
        .map((l) => {
          const current = l.href === "/dashboard" ? path === "/dashboard" : path.startsWith(l.href);
          return (
            <li key={l.href}>
              <a href={l.href} aria-current={current ? "page" : undefined}>
                {l.label}
              </a>
            </li>
          );
        })}
    </ul>
  );
}
