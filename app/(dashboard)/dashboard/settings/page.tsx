import { requestTime } from "@/lib/dashboard/clock";
import type { Metadata } from "next";
import { Card, DescriptionList } from "@/components/ui";
import { formatDate } from "@/components/dashboard/format";
import { SecretReveal } from "@/components/dashboard/secret-reveal";
import { getAccountOrThrow } from "@/lib/auth/account";
import { hourlyLimit } from "@/lib/auth/rate-limit";
import { getDb } from "@/lib/db/client";
import { requirePageMerchant } from "@/lib/dashboard/page-merchant";
import { rateLimitUsage } from "@/lib/auth/queries";
import { ActionForm, Field } from "@/components/ui/action-form";
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
  startTotpAction,
  updateToleranceAction,
} from "./actions";

export const metadata: Metadata = { title: "Settings · Dashboard" };

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

  return (
    <>
      <h1>Settings</h1>
      <Card title="Account">
        <DescriptionList
          items={[
            ["Username", account.username],
            ["Email", account.email],
            ["Shop name", account.shopName],
            ["Member since", formatDate(account.createdAt)],
          ]}
        />
      </Card>
      <Card title="Two-factor authentication">
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
      <Card title="Passkeys">
        <PasskeySettings
          passkeys={passkeys}
          twoFactorOn={twoFactor.totp.enabled || passkeys.length > 0}
          registrationOptions={passkeyRegistrationOptionsAction}
          register={registerPasskeyAction}
          proofOptions={passkeyProofOptionsAction}
          remove={removePasskeyAction}
        />
      </Card>
      <Card title="Plan and rate limit">
        <DescriptionList
          items={[
            ["Plan", account.plan],
            ["Limit", `${limit} API requests per hour`],
            ["Used this hour", `${used} (${Math.max(0, limit - used)} left)`],
            ["Window resets", formatDate(new Date(windowStart + windowMs))],
          ]}
        />
        <meter min={0} max={limit} value={Math.min(used, limit)} aria-label="Rate limit used this hour" style={{ width: "100%", marginTop: "0.75rem" }} />
      </Card>
      <Card title="Payment tolerance">
        <p>
          An order counts as paid when it received at least its amount minus this tolerance, in basis points (100 = 1 %). It absorbs rounding and wallet fees on
          fiat-priced orders. Orders keep the tolerance they were created with.
        </p>
        <ActionForm
          action={updateToleranceAction}
          submitLabel="Save tolerance"
          successMessage="Tolerance saved."
          resetOnSuccess={false}
          label="Payment tolerance"
        >
          <Field
            label="Tolerance (basis points)"
            name="payment_tolerance_bps"
            type="number"
            min={0}
            max={1000}
            defaultValue={account.paymentToleranceBps}
            required
            hint={`Now ${account.paymentToleranceBps} bps (${(account.paymentToleranceBps / 100).toFixed(2)} %); 0: the exact amount.`}
          />
        </ActionForm>
      </Card>
      <Card title="Account webhook secret">
        <p>Signs deliveries to each order&apos;s own webhook_url. After a rotation the old secret keeps signing for 24 hours.</p>
        <SecretReveal id="account" reveal={revealAccountSecretAction} rotate={rotateAccountSecretAction} />
      </Card>
    </>
  );
}
