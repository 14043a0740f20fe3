import { z } from "zod";
import { timestamp } from "@/lib/http/schemas";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const brandingBody = z.object({
  display_name: optionalText(100).describe("The name customers see; empty: the account's shop name"),
  accent_color: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "Must be a colour written #rrggbb.")
    .transform((v) => v.toLowerCase())
    .nullish()
    .transform((v) => v ?? null)
    .describe("Buttons and links on the customer pages; must reach a 4.5:1 contrast with white text"),
  support_email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email("Enter a valid email address."))
    .nullish()
    .or(z.literal("").transform(() => null))
    .transform((v) => v ?? null)
    .describe("Shown to customers as the contact"),
  support_url: z
    .string()
    .trim()
    .max(500)
    .regex(/^https:\/\/\S+$/, "Must be an https:// address.")
    .nullish()
    .or(z.literal("").transform(() => null))
    .transform((v) => v ?? null)
    .describe("A help page shown to customers"),
});
export type BrandingBody = z.infer<typeof brandingBody>;

/** 1 MB of image before re-encoding: a logo, not a photo album. */
export const maxLogoBytes = 1_000_000;

export const logoBody = z.object({
  image: z
    .string()
    .min(1)
    .max(Math.ceil((maxLogoBytes * 4) / 3) + 4, "The image must be at most 1 MB.")
    .describe("The image, base64: PNG, JPEG, WebP or GIF (SVG is refused); re-encoded as a PNG of at most 512 px a side"),
});

/** The store's look on a public page's JSON (lib/branding/branding.ts publicBrand). */
export const publicBrandJson = z.object({
  accent_color: z.string().nullable(),
  logo_url: z.string().nullable(),
  support_email: z.string().nullable(),
  support_url: z.string().nullable(),
});

export const brandingJson = z.object({
  display_name: z.string().nullable(),
  accent_color: z.string().nullable(),
  support_email: z.string().nullable(),
  support_url: z.string().nullable(),
  logo_url: z.string().nullable().describe("The re-encoded logo customers see (PNG), or null"),
  updated_at: timestamp.nullable(),
});
