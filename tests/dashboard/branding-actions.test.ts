/** Issue 55 item 4: the dashboard's branding page saves through the same use-cases as the API, the logo from a file input. */
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createMerchant } from "../helpers/factories";
import { signInAs } from "./session";

const { deleteLogoAction, saveBrandingAction, uploadLogoAction } = await import("@/app/(dashboard)/dashboard/branding/actions");

setupTestDatabase();

function form(fields: Record<string, string | Blob>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("dashboard branding page", () => {
  test("saves name, colour and contacts (a pale colour is refused); uploads a logo file and removes it", async () => {
    const merchant = await createMerchant();
    signInAs(merchant);
    const fields = { display_name: "Acme Studio", accent_color: "#0F766E", support_email: "", support_url: "" };
    expect(await saveBrandingAction(form({ ...fields, accent_color: "#fde68a" }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    expect(await saveBrandingAction(form(fields))).toMatchObject({
      ok: true,
      data: { display_name: "Acme Studio", accent_color: "#0f766e", support_email: null, support_url: null },
    });

    const png = await sharp({ create: { width: 40, height: 20, channels: 4, background: "#0f766e" } })
      .png()
      .toBuffer();
    const uploaded = await uploadLogoAction(form({ logo: new File([new Uint8Array(png)], "logo.png", { type: "image/png" }) }));
    expect(uploaded).toMatchObject({ ok: true, data: { logo_url: expect.stringContaining(`/store-logo/${merchant.id}?v=`) } });
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "logo.svg", { type: "image/svg+xml" });
    expect(await uploadLogoAction(form({ logo: svg }))).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR" } });
    expect(await deleteLogoAction(form({}))).toMatchObject({ ok: true, data: { logo_url: null } });

    signInAs(null);
    expect(await saveBrandingAction(form(fields))).toMatchObject({ ok: false, error: { code: "INVALID_TOKEN" } });
  });
});
