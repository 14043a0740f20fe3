/** A store's own look on its customer pages and mail (lib/branding). */
import { customType, integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts, timestamps } from "./columns";
import { merchants } from "./accounts";

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** One row per store that set any of it; without one, pages show the shop name in the gateway's colours. */
export const storeBranding = pgTable("store_branding", {
  merchantId: integer("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  /** The name customers see; null: the account's shop name. */
  displayName: text("display_name"),
  /** "#rrggbb", checked for contrast with white text (buttons) when saved. */
  accentColor: text("accent_color"),
  supportEmail: text("support_email"),
  supportUrl: text("support_url"),
  /** The logo as re-encoded on upload: PNG, at most 512 px a side, no metadata. */
  logoPng: bytea("logo_png"),
  logoUpdatedAt: ts("logo_updated_at"),
  ...timestamps,
});
export type StoreBranding = typeof storeBranding.$inferSelect;
