"use server";

import { z } from "zod";
import { authedAction } from "@/lib/auth/authed-action";
import { deleteLogo, saveBranding, saveLogo } from "@/lib/branding/branding";
import { brandingBody, logoBody, maxLogoBytes } from "@/lib/branding/schemas";

/** Same use-case as PUT /api/branding/. */
export const saveBrandingAction = authedAction(brandingBody, async (input, { db, merchantId }) => saveBranding(db, merchantId, input), {
  permission: "manage_account",
});

const uploadLogoBase64 = authedAction(logoBody, async ({ image }, { db, merchantId }) => saveLogo(db, merchantId, image), { permission: "manage_account" });

/** Same use-case as PUT /api/branding/logo/, from a file input (action forms carry text fields only: the file goes as base64). */
export async function uploadLogoAction(form: FormData) {
  const file = form.get("logo");
  const image = file instanceof File && file.size > 0 && file.size <= maxLogoBytes ? Buffer.from(await file.arrayBuffer()).toString("base64") : "";
  if (!image)
    return {
      ok: false as const,
      error: {
        code: "VALIDATION_ERROR" as const,
        message: "Please correct the highlighted fields.",
        details: { logo: [file instanceof File && file.size > maxLogoBytes ? "The image must be at most 1 MB." : "Choose an image file."] },
      },
    };
  return uploadLogoBase64({ image });
}

/** Same use-case as DELETE /api/branding/logo/. */
export const deleteLogoAction = authedAction(z.object({}), async (_input, { db, merchantId }) => deleteLogo(db, merchantId), { permission: "manage_account" });
