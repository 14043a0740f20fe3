import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./docs.module.css";

export const metadata: Metadata = {
  title: { default: "API reference · Payment Gateway", template: "%s · Payment Gateway docs" },
  description: "API reference and integration guides for the multi-chain payment gateway.",
};

const links = [
  { href: "/docs", label: "API reference" },
  { href: "/docs/quick-start", label: "Quick start" },
  { href: "/docs/webhooks", label: "Webhooks" },
  { href: "/docs/pricing", label: "Fiat pricing and links" },
  { href: "/docs/pay-button", label: "Pay button" },
  { href: "/docs/invoices", label: "Invoices" },
  { href: "/docs/subscriptions", label: "Subscriptions" },
  { href: "/docs/connect-your-shop", label: "Connect your shop" },
  { href: "/docs/sandbox", label: "Sandbox" },
  { href: "/docs/errors", label: "Errors and rate limits" },
  { href: "/docs/screening", label: "Screening and currencies" },
  { href: "/api/openapi.json", label: "openapi.json" },
  { href: "/dashboard", label: "Dashboard" },
];

export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <nav className={styles.nav} aria-label="Documentation">
        <Link href="/docs" className={styles.brand}>
          Payment Gateway docs
        </Link>
        {links.map((link) =>
          link.href.startsWith("/api/") ? (
            <a key={link.href} href={link.href}>
              {link.label}
            </a>
          ) : (
            <Link key={link.href} href={link.href}>
              {link.label}
            </Link>
          ),
        )}
      </nav>
      {children}
    </div>
  );
}
