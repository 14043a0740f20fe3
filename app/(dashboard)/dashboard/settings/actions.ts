"use server";

import { z } from "zod";
import { revealAccountWebhookSecret, rotateAccountWebhookSecret, updateAccountSettings } from "@/lib/auth/account";
import { confirmTotpBody, passkeyAssertion, registerPasskeyBody, updateAccountBody } from "@/lib/auth/schemas";
import { finishPasskeyRegistration, passkeyProofOptions, removePasskey, startPasskeyRegistration } from "@/lib/auth/manage-passkeys";
import { actionClientIp, authedAction } from "@/lib/auth/authed-action";
import { confirmTotpEnrolment, disableTotp, startTotpEnrolment } from "@/lib/auth/manage-totp";
import { qrSvg } from "@/lib/orders/qr-code";
import { setDashboardLocale } from "@/lib/auth/dashboard-locale";

const anyId = z.object({ id: z.string().max(12) });

/** The account webhook secret (signs deliveries to orders' webhook_url), fetched only on request. */
export const revealAccountSecretAction = authedAction(
  anyId,
  async (_input, { db, merchantId, role }) => ({
    secret: await revealAccountWebhookSecret(db, { merchantId, role }),
  }),
  { permission: "manage_account" },
);

/** Same use-case as POST /api/account/rotate-webhook-secret/. */
export const rotateAccountSecretAction = authedAction(
  anyId,
  async (_input, { db, merchantId, role }) => ({
    secret: (await rotateAccountWebhookSecret(db, { merchantId, role })).webhookSecret,
  }),
  { permission: "manage_account" },
);

/** The login's own dashboard language (issue 52 item 5): kept on the person, used on every next page. */
export const setDashboardLocaleAction = authedAction(
  z.object({ locale: z.string().max(16) }),
  async ({ locale }, { db, userId }) => ({ locale: await setDashboardLocale(db, userId, locale) }),
  { permission: "login" },
);

const toleranceFromForm = (o: unknown) => {
  const f = (o ?? {}) as Record<string, unknown>;
  return {
    payment_tolerance_bps:
      typeof f.payment_tolerance_bps === "string" && f.payment_tolerance_bps.trim() !== "" ? Number(f.payment_tolerance_bps) : f.payment_tolerance_bps,
  };
};

/** Same use-case as PUT /api/account/. */
export const updateToleranceAction = authedAction(
  z.preprocess(toleranceFromForm, updateAccountBody),
  async (input, { db, merchantId }) => ({
    payment_tolerance_bps: (await updateAccountSettings(db, merchantId, input)).paymentToleranceBps,
  }),
  { permission: "manage_account" },
);

// ─── two-factor authentication (issue 28): the same use-cases as /api/account/second-factor/… ───

const formFields = { field: "password", codeField: "code" };

/** Same use-case as POST /api/account/second-factor/totp/: the secret once, with its QR code. */
export const startTotpAction = authedAction(
  z.object({ password: z.string().max(256).optional(), code: z.string().max(64).optional() }),
  async ({ password, code }, { db, userId }) => {
    // `code`: asked when a passkey already guards the account (a recovery code does).
    const proof = password ? { password, ...(code?.trim() ? { code: code.trim() } : {}) } : undefined;
    const enrolment = await startTotpEnrolment(db, userId, proof, await actionClientIp().catch(() => null), formFields);
    return { ...enrolment, qr_svg: await qrSvg(enrolment.otpauth_uri) };
  },
  { permission: "login" },
);

/** Same use-case as POST /api/account/second-factor/totp/confirm/: the ten recovery codes, shown this once. */
export const confirmTotpAction = authedAction(confirmTotpBody, async ({ code }, { db, userId }) => confirmTotpEnrolment(db, userId, code), {
  permission: "login",
});

/** Same use-case as POST /api/account/second-factor/totp/disable/: password and a fresh code. */
export const disableTotpAction = authedAction(
  z.object({ password: z.string().max(256).optional(), code: z.string().max(64).optional() }),
  async ({ password, code }, { db, userId }) => {
    const proof = password ? { password, ...(code?.trim() ? { code: code.trim() } : {}) } : undefined;
    return disableTotp(db, userId, proof, await actionClientIp().catch(() => null), formFields);
  },
  { permission: "login" },
);

// ─── passkeys (issue 28): the same use-cases as /api/account/second-factor/passkeys/… ───

/** The password, plus a code or a passkey assertion when two-factor authentication is already on. */
const passkeyProofInput = z.object({
  password: z.string().max(256).optional(),
  code: z.string().max(64).optional(),
  passkey: passkeyAssertion.optional(),
});
const proofOf = ({ password, code, passkey }: z.infer<typeof passkeyProofInput>) =>
  password ? { password, ...(code?.trim() ? { code: code.trim() } : {}), ...(passkey ? { passkey } : {}) } : undefined;

/** Same use-case as POST /api/account/second-factor/passkeys/options/: creation options for the browser. */
export const passkeyRegistrationOptionsAction = authedAction(
  passkeyProofInput,
  async (input, { db, userId }) => startPasskeyRegistration(db, userId, proofOf(input), await actionClientIp().catch(() => null), formFields),
  { permission: "login" },
);

/** Same use-case as POST /api/account/second-factor/passkeys/: the new passkey (and recovery codes when it is the first factor). */
export const registerPasskeyAction = authedAction(
  registerPasskeyBody,
  async (input, { db, userId }) => finishPasskeyRegistration(db, userId, input, await actionClientIp().catch(() => null)),
  { permission: "login" },
);

/** Same use-case as POST /api/account/second-factor/passkeys/proof-options/: request options for a fresh proof. */
export const passkeyProofOptionsAction = authedAction(z.object({}), async (_input, { db, userId }) => passkeyProofOptions(db, userId), { permission: "login" });

/** Same use-case as POST /api/account/second-factor/passkeys/{id}/remove/: password and a fresh second factor. */
export const removePasskeyAction = authedAction(
  passkeyProofInput.extend({ id: z.coerce.number().int().positive() }),
  async (input, { db, userId }) => removePasskey(db, userId, input.id, proofOf(input), await actionClientIp().catch(() => null), formFields),
  { permission: "login" },
);
