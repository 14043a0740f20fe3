"use client";

import { usePathname } from "next/navigation";
import { navLinks, type NavLabel } from "./nav-items";

/** `labels`: each section's name in the dashboard's language (the layout translates them on the server). */
export function NavLinks({ sandbox, labels }: { sandbox: boolean; labels: Record<NavLabel, string> }) {
  const path = usePathname();
  return (
    <ul>
      {navLinks
        .filter((l) => sandbox || !("sandboxOnly" in l && l.sandboxOnly))
        .map((l) => {
          const current = l.href === "/dashboard" ? path === "/dashboard" : path.startsWith(l.href);
          return (
            <li key={l.href}>
              <a href={l.href} aria-current={current ? "page" : undefined}>
                {labels[l.label]}
              </a>
            </li>
          );
        })}
    </ul>
  );
}
