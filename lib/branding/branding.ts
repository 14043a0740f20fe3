import "server-only";
import sharp from "sharp";
import type { StoreBranding } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { validationError } from "@/lib/http/errors";
import { contrastRatio, minimumContrast } from "./contrast";
import { findBranding, findBrandingWithShop, upsertBranding } from "./queries";
import type { BrandingBody } from "./schemas";

/** What the customer pages and mail show of a store. */
export interface StoreLook {
  name: string;
  accentColor: string | null;
  supportEmail: string | null;
  supportUrl: string | null;
  logoUrl: string | null;
}

/** The store's look as a public page's JSON carries it (`brand`): every field null for a store without branding. */
export function publicBrand(look: StoreLook | null) {
  return {
    accent_color: look?.accentColor ?? null,
    logo_url: look?.logoUrl ?? null,
    support_email: look?.supportEmail ?? null,
    support_url: look?.supportUrl ?? null,
  };
}

export function logoUrl(merchantId: number, updatedAt: Date | null): string | null {
  return updatedAt ? `${env.APP_URL.replace(/\/+$/, "")}/store-logo/${merchantId}?v=${updatedAt.getTime()}` : null;
}

export function serializeBranding(merchantId: number, row: StoreBranding | null) {
  return {
    display_name: row?.displayName ?? null,
    accent_color: row?.accentColor ?? null,
    support_email: row?.supportEmail ?? null,
    support_url: row?.supportUrl ?? null,
    logo_url: logoUrl(merchantId, row?.logoPng ? (row.logoUpdatedAt ?? null) : null),
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

export async function getBranding(db: DbOrTx, merchantId: number) {
  return serializeBranding(merchantId, await findBranding(db, merchantId));
}

/** Saves the store's name, colour and contacts; an accent colour white text cannot be read on is refused. */
export async function saveBranding(db: DbOrTx, merchantId: number, input: BrandingBody, now = new Date()) {
  if (input.accent_color) {
    const ratio = contrastRatio(input.accent_color, "#ffffff");
    if (ratio < minimumContrast) {
      throw validationError({
        accent_color: [
          `White text on ${input.accent_color} has a contrast of ${ratio.toFixed(2)}:1; customers need at least ${minimumContrast}:1. Choose a darker colour.`,
        ],
      });
    }
  }
  const fields = {
    displayName: input.display_name,
    accentColor: input.accent_color,
    supportEmail: input.support_email,
    supportUrl: input.support_url,
    updatedAt: now,
  };
  return serializeBranding(merchantId, await upsertBranding(db, { merchantId, ...fields, createdAt: now }, fields));
}

/** Raster formats a logo may arrive in; anything else (SVG above all: it can carry scripts) is refused. */
const acceptedFormats = new Set(["png", "jpeg", "webp", "gif"]);
export const logoMaxSide = 512;

/**
 * Validates an uploaded logo and re-encodes it: decoded by sharp (a raster format only, at most
 * 4096 × 4096 before decoding), scaled to fit `logoMaxSide`, written as a fresh PNG with no
 * metadata. What customers get is never the uploaded bytes.
 */
export async function reencodeLogo(image: Buffer): Promise<Buffer> {
  const refuse = (message: string) => validationError({ image: [message] });
  let format: string | undefined;
  try {
    const meta = await sharp(image, { limitInputPixels: 4096 * 4096 }).metadata();
    format = meta.format;
  } catch {
    throw refuse("This is not an image we can read: upload a PNG, JPEG, WebP or GIF.");
  }
  if (!format || !acceptedFormats.has(format)) throw refuse(`${format?.toUpperCase() ?? "This format"} is not accepted: upload a PNG, JPEG, WebP or GIF.`);
  return sharp(image, { limitInputPixels: 4096 * 4096, animated: false })
    .resize({ width: logoMaxSide, height: logoMaxSide, fit: "inside", withoutEnlargement: true })
    .png()
    .toBuffer();
}

export async function saveLogo(db: DbOrTx, merchantId: number, base64: string, now = new Date()) {
  const bytes = Buffer.from(base64, "base64");
  const png = await reencodeLogo(bytes);
  const fields = { logoPng: png, logoUpdatedAt: now, updatedAt: now };
  return serializeBranding(merchantId, await upsertBranding(db, { merchantId, ...fields, createdAt: now }, fields));
}

export async function deleteLogo(db: DbOrTx, merchantId: number, now = new Date()) {
  const fields = { logoPng: null, logoUpdatedAt: null, updatedAt: now };
  return serializeBranding(merchantId, await upsertBranding(db, { merchantId, ...fields, createdAt: now }, fields));
}

/** The store's look for its customers: its display name (or shop name), colour, contacts and logo. */
export async function storeLook(db: DbOrTx, merchantId: number): Promise<StoreLook | null> {
  const found = await findBrandingWithShop(db, merchantId);
  if (!found) return null;
  const b = found.branding;
  return {
    name: b?.displayName ?? found.shopName,
    accentColor: b?.accentColor ?? null,
    supportEmail: b?.supportEmail ?? null,
    supportUrl: b?.supportUrl ?? null,
    logoUrl: logoUrl(merchantId, b?.logoPng ? (b.logoUpdatedAt ?? null) : null),
  };
}

/** The logo's PNG bytes, or null. */
export async function logoPng(db: DbOrTx, merchantId: number): Promise<Buffer | null> {
  const row = await findBranding(db, merchantId);
  return row?.logoPng ? Buffer.from(row.logoPng) : null;
}
