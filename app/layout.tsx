import type { Metadata } from "next";
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Payment Gateway",
  description: "Accept crypto payments on Ethereum, Base, Polygon, Arbitrum and Optimism.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The customer pages', the dashboard's and the sign-in pages' language (i18n/request.ts); English everywhere else.
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>{children}</body>
    </html>
  );
}
