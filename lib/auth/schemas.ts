import { z } from "zod";
import { timestamp } from "@/lib/http/schemas";
import { commonPasswordReason } from "./common-passwords";
import { permission } from "./permissions";

export const registerBody = z.object({
  username: z
    .string()
    .trim()
    .min(3, "Username must be at least 3 characters.")
    .max(150, "Username must be at most 150 characters.")
    .regex(/^[A-Za-z0-9_.@+-]+$/, "Username may contain only letters, digits and _ . @ + -.")
    .describe("Login name, unique regardless of case"),
  email: z.string().trim().max(254).pipe(z.email("Enter a valid email address.")).describe("Contact email, unique regardless of case"),
  password: z
    .string()
    .min(8, "Password must be at least 8 characters.")
    .max(256, "Password must be at most 256 characters.")
    .superRefine((password, ctx) => {
      const reason = commonPasswordReason(password);
      if (reason) ctx.addIssue({ code: "custom", message: `${reason} Choose a longer, less predictable one.` });
    })
    .describe("At least 8 characters, not a common password; never returned"),
  shop_name: z.string().trim().min(1, "Shop name must not be empty.").max(200).describe("Shown to customers on the payment page"),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** Which merchant account a login's tokens act in (issue 28: a person may belong to several). */
const accountField = z
  .number()
  .int()
  .positive()
  .max(2_147_483_647)
  .optional()
  .describe(
    "The merchant account (its id) the tokens act in, for a login that belongs to several; default: the login's own account, else the first it joined. Not a member: 400 VALIDATION_ERROR on `account`.",
  );

export const loginBody = z.object({
  username: z.string().min(1).max(254),
  password: z.string().min(1).max(256),
  account: accountField,
});
export type LoginBody = z.infer<typeof loginBody>;

export const refreshBody = z.object({
  refresh: z.string().min(1).max(4096).describe("The refresh token from login or the last refresh"),
});
export type RefreshBody = z.infer<typeof refreshBody>;

// Response shapes of the auth and account routes (bare bodies for auth, envelope data for account).

export const registerJson = z.object({
  user: z.object({ id: z.number().int(), username: z.string(), email: z.string(), shop_name: z.string() }),
  webhook_secret: z.string().describe("Signs deliveries to per-order webhook_url (whsec_…); also in GET /api/account/"),
});

export const tokenPairJson = z.object({
  access: z.string().describe("JWT access token, valid 24 hours: send as `Authorization: Bearer <access>`"),
  refresh: z.string().describe("Single-use refresh token, valid 30 days"),
});

export const loginJson = tokenPairJson.extend({
  user: z.object({ id: z.number().int(), username: z.string(), email: z.string() }),
  account: z
    .object({ id: z.number().int(), role: z.enum(["owner", "admin", "developer", "viewer"]) })
    .describe("The merchant account the tokens act in and the login's role there (refresh keeps it)"),
});

export const verifyJson = z.object({
  valid: z.literal(true),
  user: z.object({
    id: z.number().int(),
    username: z.string(),
    permissions: z.array(permission).describe("What this credential may do"),
  }),
  account: z
    .object({
      id: z.number().int(),
      role: z.enum(["owner", "admin", "developer", "viewer"]).nullable().describe("A login's role in the account; null for an API key"),
    })
    .describe("The merchant account the credential acts in"),
  expires_at: timestamp.nullable().describe("When the credential expires; null for an API key without expiry"),
});

export const accountJson = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  shop_name: z.string(),
  plan: z.string().describe("standard, premium or enterprise"),
  rate_limit_per_hour: z.number().int().describe("Requests an hour shared by all of the account's credentials"),
  webhook_secret: z.string().nullable().describe("Signs deliveries to per-order webhook_url; null unless your role manages the account (owner, admin)"),
  payment_tolerance_bps: z.number().int().describe("An order counts as paid when it received at least amount × (1 − this / 10 000); 0: the exact amount"),
  email_verified_at: timestamp.nullable().describe("When the email address was verified (its link opened); null: not yet"),
  created_at: timestamp,
});

/** 1000 bps = 10 %: anything looser is no longer a tolerance but a discount. */
export const maxPaymentToleranceBps = 1000;

export const updateAccountBody = z.object({
  payment_tolerance_bps: z
    .number({ error: "Must be an integer (a JSON number)." })
    .int("Must be a whole number.")
    .min(0, "Must be zero or greater.")
    .max(maxPaymentToleranceBps, `Must be at most ${maxPaymentToleranceBps} (10 %).`)
    .describe("Underpayment tolerance in basis points for new orders (0–1000)"),
});
export type UpdateAccountBody = z.infer<typeof updateAccountBody>;

export const rotatedAccountSecretJson = z.object({
  webhook_secret: z.string().describe("The new secret"),
  previous_secret_expires_at: timestamp.nullable().describe("Until then deliveries carry a signature with the old secret too"),
});

/**
 * A fresh proof that the account owner is at the keyboard, asked for on top of the credential
 * before a change that redirects money (a payout address). A stolen 24 h access token or session
 * cookie is not enough. Today the proof is the current password; a second factor (TOTP, passkey)
 * will be another member of this object, so clients already send `{ "reauth": { … } }`.
 */
export const secondFactorCode = z
  .string()
  .trim()
  .min(1, "Enter a code.")
  .max(64)
  .describe("A current 6-digit code from the authenticator app, or one of the unused recovery codes (each works once)");

const b64url = z
  .string()
  .max(16384)
  .regex(/^[A-Za-z0-9_-]*$/, "Expected base64url.");

/** A WebAuthn assertion as @simplewebauthn/browser's startAuthentication() answers it (issue 28). */
export const passkeyAssertion = z
  .object({
    id: b64url.min(1),
    rawId: b64url.min(1),
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: b64url.min(1),
      authenticatorData: b64url.min(1),
      signature: b64url.min(1),
      userHandle: b64url.optional(),
    }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .describe(
    "A WebAuthn assertion (the JSON of navigator.credentials.get(), as @simplewebauthn/browser's startAuthentication() gives it) over a challenge from a passkey options endpoint",
  );
export type PasskeyAssertion = z.infer<typeof passkeyAssertion>;

/** A WebAuthn attestation as @simplewebauthn/browser's startRegistration() answers it. */
export const passkeyAttestation = z
  .object({
    id: b64url.min(1),
    rawId: b64url.min(1),
    type: z.literal("public-key"),
    response: z.object({
      clientDataJSON: b64url.min(1),
      attestationObject: b64url.min(1),
      transports: z.array(z.enum(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"])).optional(),
      authenticatorData: b64url.optional(),
      publicKey: b64url.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
    }),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  })
  .describe(
    "The JSON of navigator.credentials.create() (as @simplewebauthn/browser's startRegistration() gives it) over the challenge from POST /api/account/second-factor/passkeys/options/",
  );

export const reauthProof = z
  .object({
    password: z.string().min(1, "Enter your current password.").max(256).describe("The account's current password"),
    code: secondFactorCode
      .optional()
      .describe("Required when the account has two-factor authentication: a fresh TOTP code or a recovery code (or give `passkey` instead)"),
    passkey: passkeyAssertion
      .optional()
      .describe(
        "Instead of `code`: an assertion of one of the account's passkeys over a challenge from POST /api/account/second-factor/passkeys/proof-options/",
      ),
  })
  .describe(
    "Fresh proof of the account owner, required to add or change a payout address: { password }, plus { code } when two-factor authentication is enabled.",
  );
export type ReauthProof = z.infer<typeof reauthProof>;

/** Asked before creating an API key or adding a webhook endpoint when the account has a second factor (issue 28). */
export const secondFactorReauth = z
  .object({ code: secondFactorCode.optional(), passkey: passkeyAssertion.optional() })
  .refine((r) => r.code !== undefined || r.passkey !== undefined, { message: "Give a code or a passkey assertion.", path: ["code"] })
  .describe(
    "Required when the account has two-factor authentication: { code }, a fresh TOTP code or a recovery code, or { passkey }, a passkey assertion over a challenge from POST /api/account/second-factor/passkeys/proof-options/",
  );
export type SecondFactorReauth = z.infer<typeof secondFactorReauth>;

export const loginSecondFactorBody = z
  .object({
    challenge: z.string().min(1).max(4096).describe("`second_factor.challenge` from the 401 SECOND_FACTOR_REQUIRED answer of POST /api/auth/login/"),
    code: secondFactorCode.optional().describe("A TOTP or recovery code; give this or `passkey`"),
    passkey: passkeyAssertion.optional().describe("Instead of `code`: an assertion over the options from POST /api/auth/login/second-factor/passkey-options/"),
    account: accountField,
  })
  .refine((b) => b.code !== undefined || b.passkey !== undefined, { message: "Enter a code, or use a passkey.", path: ["code"] });

export const loginPasskeyOptionsBody = z.object({
  challenge: z.string().min(1).max(4096).describe("`second_factor.challenge` from the 401 SECOND_FACTOR_REQUIRED answer of POST /api/auth/login/"),
});

/** PublicKeyCredentialRequestOptionsJSON / CreationOptionsJSON, passed as-is to @simplewebauthn/browser. */
export const passkeyOptionsJson = z
  .record(z.string(), z.unknown())
  .describe(
    "WebAuthn options (PublicKeyCredential*OptionsJSON): pass them to @simplewebauthn/browser's startAuthentication()/startRegistration() as optionsJSON. The challenge inside works once, for 5 minutes.",
  );

export const passkeyJson = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});

export const passkeyOptionsBody = z.object({
  reauth: reauthProof.describe("{ password }, plus { code } or { passkey } when two-factor authentication is already on"),
});
export const registerPasskeyBody = z.object({
  name: z.string().trim().min(1).max(64).default("Passkey").describe("A label to tell passkeys apart"),
  response: passkeyAttestation,
});
export const registeredPasskeyJson = z.object({
  passkey: passkeyJson,
  recovery_codes: z
    .array(z.string())
    .describe("When this passkey turned two-factor authentication on: ten single-use recovery codes, shown this once; otherwise empty"),
});
export const removePasskeyBody = z.object({
  reauth: reauthProof.describe("{ password, code } or { password, passkey }: the current password and a fresh second factor"),
});

export const secondFactorRequiredJson = z.object({
  challenge: z.string().describe("Signed, valid 5 minutes: send it with a code to POST /api/auth/login/second-factor/"),
  methods: z.array(z.enum(["totp", "recovery_code", "passkey"])).describe("What the second step accepts"),
  expires_at: timestamp,
});

export const secondFactorStatusJson = z.object({
  totp: z.object({ enabled: z.boolean(), enabled_at: timestamp.nullable() }),
  recovery_codes_remaining: z.number().int().describe("Unused recovery codes (0 when two-factor authentication is off)"),
  passkeys: z.number().int().describe("How many passkeys are registered as a second factor"),
});

export const beginTotpBody = z.object({ reauth: reauthProof.describe("The account's current password: { password }") });
export const totpEnrolmentJson = z.object({
  secret: z.string().describe("The TOTP secret (base32), shown this once: type it into the authenticator app, or scan otpauth_uri as a QR code"),
  otpauth_uri: z.string().describe("otpauth://totp/… (SHA-1, 6 digits, 30 s)"),
});
export const confirmTotpBody = z.object({ code: secondFactorCode.describe("The app's current 6-digit code") });
export const recoveryCodesJson = z.object({
  recovery_codes: z.array(z.string()).describe("Ten single-use recovery codes, shown this once: store them safely"),
});
export const disableTotpBody = z.object({ reauth: reauthProof.describe("{ password, code }: the current password and a fresh code") });

/** A session on the sessions page (issue 28 item 5): an API login (refresh-token family) or a dashboard sign-in. */
export const sessionJson = z.object({
  id: z.string().describe("The session's id (its login family); DELETE /api/account/sessions/{id}/ ends it"),
  kind: z.enum(["api", "dashboard"]).describe("`api`: POST /api/auth/login/ (access and refresh tokens); `dashboard`: a dashboard sign-in"),
  device: z.string().nullable().describe('Browser and system read from the User-Agent, e.g. "Chrome 120 on Linux (desktop)"'),
  user_agent: z.string().nullable(),
  client_ip: z.string().nullable().describe("The address it signed in from"),
  last_seen_ip: z.string().nullable().describe("The address of its last sign-in, refresh or dashboard page"),
  created_at: timestamp,
  last_seen_at: timestamp.describe("Its last sign-in, token refresh or dashboard page (to the minute)"),
  current: z.boolean().describe("The session making this request"),
});

export const sessionParams = z.object({ id: z.string().uuid("Not a session id.").describe("The session's id from GET /api/account/sessions/") });
