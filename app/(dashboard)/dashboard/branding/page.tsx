import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Card, Row, uiStyles } from "@/components/ui";
import { ActionForm, Field } from "@/components/ui/action-form";
import { getBranding } from "@/lib/branding/branding";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { deleteLogoAction, saveBrandingAction, uploadLogoAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.branding"))("metaTitle") };
}

// /dashboard/branding – the store's name, colour, support contact and logo on its customer pages and mail
export default async function BrandingPage() {
  const merchant = await requirePageMerchant();
  const t = await getTranslations("dashboard.branding");
  const branding = await getBranding(await getDb(), merchant.merchantId);
  return (
    <>
      <h1>{t("heading")}</h1>
      <p>{t("intro")}</p>
      <Card title={t("look.title")}>
        <ActionForm action={saveBrandingAction} submitLabel={t("look.submit")} successMessage={t("look.done")} resetOnSuccess={false}>
          <Row>
            <Field label={t("look.name")} name="display_name" maxLength={100} defaultValue={branding.display_name ?? ""} hint={t("look.nameHint")} />
            <Field label={t("look.accent")} name="accent_color" type="color" defaultValue={branding.accent_color ?? "#1d4ed8"} hint={t("look.accentHint")} />
          </Row>
          <Row>
            <Field label={t("look.supportEmail")} name="support_email" type="email" maxLength={254} defaultValue={branding.support_email ?? ""} />
            <Field
              label={t("look.supportUrl")}
              name="support_url"
              type="url"
              maxLength={500}
              placeholder="https://"
              defaultValue={branding.support_url ?? ""}
            />
          </Row>
        </ActionForm>
      </Card>
      <Card title={t("logo.title")}>
        {branding.logo_url ? (
          // eslint-disable-next-line @next/next/no-img-element -- the store's PNG, re-encoded on upload, served by this app
          <img src={branding.logo_url} alt={t("logo.alt")} style={{ maxHeight: 56, maxWidth: 200 }} />
        ) : (
          <p className={uiStyles.hint}>{t("logo.none")}</p>
        )}
        <ActionForm action={uploadLogoAction} submitLabel={t("logo.upload")} successMessage={t("logo.done")}>
          <Field label={t("logo.image")} name="logo" type="file" accept="image/png,image/jpeg,image/webp,image/gif" required hint={t("logo.imageHint")} />
        </ActionForm>
        {branding.logo_url && (
          <ActionForm action={deleteLogoAction} submitLabel={t("logo.remove")} variant="danger" small confirmText={t("logo.removeConfirm")} />
        )}
      </Card>
    </>
  );
}
