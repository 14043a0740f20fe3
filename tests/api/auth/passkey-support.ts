import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array | Buffer) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** Authenticator data flags: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software passkey: a P-256 key the test holds, answering WebAuthn challenges like a browser and
 * authenticator would (clientDataJSON, authenticator data, "none" attestation, ES256 signatures).
 * `counter` is the signature counter it reports next (0 stays 0, as many passkeys do).
 */
export class SoftwarePasskey {
  readonly credentialId = b64url(randomBytes(32));
  private readonly privateKey: KeyObject;
  private readonly coseKey: Uint8Array;
  counter: number;

  constructor({ counter = 0 }: { counter?: number } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    this.counter = counter;
    const jwk = publicKey.export({ format: "jwk" });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    this.coseKey = isoCBOR.encode(cose);
  }

  private clientData(type: string, challenge: string, origin: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() over `options` (PublicKeyCredentialCreationOptionsJSON). */
  register(options: { challenge: string; rp: { id?: string } }, { origin = "http://localhost:3000", rpId = options.rp.id ?? "localhost" } = {}) {
    const clientDataJSON = this.clientData("webauthn.create", options.challenge, origin);
    const credentialId = isoBase64URL.toBuffer(this.credentialId);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV | AT]), uint32(this.counter), Buffer.alloc(16), idLength, credentialId, this.coseKey]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal" as const] },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() over `options` (PublicKeyCredentialRequestOptionsJSON); the counter advances when it counts. */
  assert(options: { challenge: string; rpId?: string }, { origin = "http://localhost:3000", rpId = options.rpId ?? "localhost" } = {}) {
    if (this.counter > 0) this.counter += 1;
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, origin);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | UV]), uint32(this.counter)]);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature) },
      clientExtensionResults: {},
    };
  }
}
