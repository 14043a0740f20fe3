import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { Card, DescriptionList } from "@/components/ui";
import { formatDate } from "@/components/dashboard/format";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { getAccountOrThrow } from "@/lib/auth/account";
import { hourlyLimit } from "@/lib/auth/rate-limit";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { rateLimitUsage } from "@/lib/auth/queries";
import { ActionForm, Field, SelectField } from "@/components/ui/action-form";
import { dashboardLocaleOf } from "@/lib/auth/dashboard-locale";
import { customerLocales, localeNames } from "@/lib/i18n/locales";
import { PasskeySettings } from "@/components/dashboard/passkey-settings";
import { TotpSettings } from "@/components/dashboard/totp-settings";
import { listMerchantPasskeys } from "@/lib/auth/manage-passkeys";
import { secondFactorStatus } from "@/lib/auth/second-factor";
import {
  confirmTotpAction,
  disableTotpAction,
  passkeyProofOptionsAction,
  passkeyRegistrationOptionsAction,
  registerPasskeyAction,
  removePasskeyAction,
  rotateAccountSecretAction,
  revealAccountSecretAction,
  setDashboardLocaleAction,
  startTotpAction,
  updateToleranceAction,
} from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("dashboard.settings"))("metaTitle") };
}

/** The rate limit's fixed window (lib/rate-limit/fixed-window.ts): one hour. */
const windowMs = 60 * 60 * 1000;

export default async function SettingsPage() {
  const merchant = await requirePageMerchant();
  const db = await getDb();
  const account = await getAccountOrThrow(db, merchant.merchantId);
  const now = requestTime().getTime();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const used = await rateLimitUsage(db, merchant.merchantId, new Date(windowStart));
  const limit = hourlyLimit(account.plan, account.rateLimitPerHour);
  const twoFactor = await secondFactorStatus(db, merchant.userId);
  const passkeys = await listMerchantPasskeys(db, merchant.userId);
  const [t, format, locale, chosen] = await Promise.all([
    getTranslations("dashboard.settings"),
    getFormatter(),
    getLocale(),
    dashboardLocaleOf(db, merchant.userId),
  ]);

  return (
    <>
      <h1>{t("heading")}</h1>
      <Card title={t("account.title")}>
        <DescriptionList
          items={[
            [t("account.username"), account.username],
            [t("account.email"), account.email],
            [t("account.shopName"), account.shopName],
            [t("account.memberSince"), formatDate(account.createdAt)],
          ]}
        />
      </Card>
      <Card title={t("language.title")}>
        <p>{t("language.explain")}</p>
        <ActionForm
          action={setDashboardLocaleAction}
          submitLabel={t("language.save")}
          successMessage={t("language.saved")}
          resetOnSuccess={false}
          label={t("language.title")}
        >
          <SelectField
            label={t("language.field")}
            name="locale"
            options={customerLocales.map((code) => ({ value: code, label: localeNames[code] }))}
            defaultValue={chosen ?? locale}
            hint={chosen ? undefined : t("language.negotiated")}
          />
        </ActionForm>
      </Card>
      <Card title={t("twoFactor")}>
        <TotpSettings
          enabled={twoFactor.totp.enabled}
          enabledAt={twoFactor.totp.enabled_at}
          recoveryCodesRemaining={twoFactor.recovery_codes_remaining}
          otherFactorOn={passkeys.length > 0}
          start={startTotpAction}
          confirm={confirmTotpAction}
          disable={disableTotpAction}
        />
      </Card>
      <Card title={t("passkeys")}>
        <PasskeySettings
          passkeys={passkeys}
          twoFactorOn={twoFactor.totp.enabled || passkeys.length > 0}
          registrationOptions={passkeyRegistrationOptionsAction}
          register={registerPasskeyAction}
          proofOptions={passkeyProofOptionsAction}
          remove={removePasskeyAction}
        />
      </Card>
      <Card title={t("plan.title")}>
        <DescriptionList
          items={[
            [t("plan.plan"), account.plan],
            [t("plan.limit"), t("plan.limitValue", { limit: format.number(limit) })],
            [t("plan.used"), t("plan.usedValue", { used: format.number(used), left: format.number(Math.max(0, limit - used)) })],
            [t("plan.resets"), formatDate(new Date(windowStart + windowMs))],
          ]}
        />
        <meter min={0} max={limit} value={Math.min(used, limit)} aria-label={t("plan.meter")} style={{ width: "100%", marginTop: "0.75rem" }} />
      </Card>
      <Card title={t("tolerance.title")}>
        <p>{t("tolerance.explain")}</p>
        <ActionForm
          action={updateToleranceAction}
          submitLabel={t("tolerance.save")}
          successMessage={t("tolerance.saved")}
          resetOnSuccess={false}
          label={t("tolerance.title")}
        >
          <Field
            label={t("tolerance.field")}
            name="payment_tolerance_bps"
            type="number"
            min={0}
            max={1000}
            defaultValue={account.paymentToleranceBps}
            required
            hint={t("tolerance.hint", { bps: account.paymentToleranceBps, percent: (account.paymentToleranceBps / 100).toFixed(2) })}
          />
        </ActionForm>
      </Card>
      <Card title={t("secret.title")}>
        <p>{t("secret.explain")}</p>
        <SecretReveal id="account" reveal={revealAccountSecretAction} rotate={rotateAccountSecretAction} />
      </Card>
    </>
  );
}
