import type { Metadata } from "next";
import { Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, Field } from "@/components/ui/action-form";
import { getBranding } from "@/lib/branding/branding";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { deleteLogoAction, saveBrandingAction, uploadLogoAction } from "./actions";

export const metadata: Metadata = { title: "Branding · Dashboard" };

// /dashboard/branding – the store's name, colour, support contact and logo on its customer pages and mail
export default async function BrandingPage() {
  const merchant = await requirePageMerchant();
  const branding = await getBranding(await getDb(), merchant.merchantId);
  return (
    <>
      <h1>Branding</h1>
      <p>What your customers see on the payment, link, invoice and receipt pages and in the e-mails your store sends them.</p>
      <Card title="Name, colour and contact">
        <ActionForm action={saveBrandingAction} submitLabel="Save" successMessage="Branding saved." resetOnSuccess={false}>
          <Row>
            <Field
              label="Name shown to customers"
              name="display_name"
              maxLength={100}
              defaultValue={branding.display_name ?? ""}
              hint="Empty: your shop name"
            />
            <Field
              label="Accent colour"
              name="accent_color"
              type="color"
              defaultValue={branding.accent_color ?? "#1d4ed8"}
              hint="Buttons carry white text on it: it must be dark enough (4.5:1)"
            />
          </Row>
          <Row>
            <Field label="Support e-mail" name="support_email" type="email" maxLength={254} defaultValue={branding.support_email ?? ""} />
            <Field label="Support page" name="support_url" type="url" maxLength={500} placeholder="https://" defaultValue={branding.support_url ?? ""} />
          </Row>
        </ActionForm>
      </Card>
      <Card title="Logo">
        {branding.logo_url ? (
          // eslint-disable-next-line @next/next/no-img-element -- the store's PNG, re-encoded on upload, served by this app
          <img src={branding.logo_url} alt="Your logo as customers see it" style={{ maxHeight: 56, maxWidth: 200 }} />
        ) : (
          <p className={uiStyles.hint}>No logo yet.</p>
        )}
        <ActionForm action={uploadLogoAction} submitLabel="Upload" successMessage="Logo saved.">
          <Field
            label="Image (PNG, JPEG, WebP or GIF, at most 1 MB)"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            required
            hint="Re-encoded as a PNG of at most 512 px a side. SVG is not accepted."
          />
        </ActionForm>
        {branding.logo_url && (
          <ActionForm
            action={deleteLogoAction}
            submitLabel="Remove the logo"
            variant="danger"
            small
            confirmText="Remove the logo from your customer pages and mail?"
          />
        )}
      </Card>
    </>
  );
}
