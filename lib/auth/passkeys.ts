import "server-only";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { DbOrTx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { sha256Hex } from "./hash";
import { advancePasskeyCounter, findPasskeyByCredentialId, insertWebauthnChallenge, listPasskeys, spendWebauthnChallenge } from "./passkey-queries";

/** What a WebAuthn challenge is for; a challenge is spent only by the step it was made for. */
export type PasskeyPurpose = "register" | "login" | "proof";

/** How long the browser has to answer a WebAuthn challenge. */
export const passkeyChallengeTtlMs = 5 * 60 * 1000;

/** The relying party is the dashboard's public origin (APP_URL): its host name is the RP ID. */
export function relyingParty() {
  const url = new URL(env.APP_URL);
  return { id: url.hostname, origin: url.origin, name: "Payment Gateway" };
}

async function rememberChallenge(db: DbOrTx, merchantId: number, purpose: PasskeyPurpose, challenge: string, now: Date) {
  await insertWebauthnChallenge(db, merchantId, purpose, sha256Hex(challenge), new Date(now.getTime() + passkeyChallengeTtlMs), now);
}

const spendChallenge = (db: DbOrTx, merchantId: number, purpose: PasskeyPurpose, now: Date) => (challenge: string) =>
  spendWebauthnChallenge(db, merchantId, purpose, sha256Hex(challenge), now);

type Transports = NonNullable<WebAuthnCredential["transports"]>;
const transportsOf = (stored: string | null): Transports | undefined => (stored ? (JSON.parse(stored) as Transports) : undefined);

/** Options for navigator.credentials.create(): the account's existing passkeys are excluded. */
export async function passkeyRegistrationOptions(db: DbOrTx, merchant: { id: number; username: string }, now = new Date()) {
  const rp = relyingParty();
  const existing = await listPasskeys(db, merchant.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: merchant.username,
    userID: new TextEncoder().encode(`merchant:${merchant.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId!, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    timeout: passkeyChallengeTtlMs,
  });
  await rememberChallenge(db, merchant.id, "register", options.challenge, now);
  return options;
}

/** The new credential when `response` answers a registration challenge of this merchant from our origin; null otherwise. */
export async function verifyPasskeyRegistration(db: DbOrTx, merchantId: number, response: RegistrationResponseJSON, now = new Date()) {
  const rp = relyingParty();
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: spendChallenge(db, merchantId, "register", now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      signCount: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
    };
  } catch {
    return null;
  }
}

/** Options for navigator.credentials.get() limited to the merchant's passkeys; null when it has none. */
export async function passkeyAuthenticationOptions(db: DbOrTx, merchantId: number, purpose: Exclude<PasskeyPurpose, "register">, now = new Date()) {
  const passkeys = await listPasskeys(db, merchantId);
  if (passkeys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId!, transports: transportsOf(p.transports) })),
    userVerification: "preferred",
    timeout: passkeyChallengeTtlMs,
  });
  await rememberChallenge(db, merchantId, purpose, options.challenge, now);
  return options;
}

/**
 * Whether `response` is a valid assertion by one of the merchant's passkeys over an unspent
 * challenge made for `purpose`, from our origin; on success the challenge is spent and the
 * signature counter stored. Refused: a replay (challenge already spent, or a counter that did not
 * advance for an authenticator that counts), another account's or an unknown credential, a bad
 * signature, a wrong origin or RP ID.
 */
export async function verifyPasskeyAssertion(
  db: DbOrTx,
  merchantId: number,
  response: AuthenticationResponseJSON,
  purpose: Exclude<PasskeyPurpose, "register">,
  now = new Date(),
) {
  const passkey = await findPasskeyByCredentialId(db, merchantId, response.id);
  if (!passkey?.enabledAt || !passkey.credentialId || !passkey.publicKey) return null;
  const rp = relyingParty();
  try {
    const previous = passkey.signCount ?? 0;
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: spendChallenge(db, merchantId, purpose, now),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: previous,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    if (!(await advancePasskeyCounter(db, passkey.id, previous, result.authenticationInfo.newCounter, now))) return null;
    return passkey;
  } catch {
    return null;
  }
}
