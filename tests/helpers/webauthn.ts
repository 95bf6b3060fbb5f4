// A software authenticator for tests, so that passkey flows run in Node without
// a browser: ES256 credentials made with WebCrypto, attestation "none",
// assertions signed as an authenticator signs them (over authenticatorData and
// the SHA-256 of clientDataJSON, DER-encoded), a signature counter per
// credential. It answers as JSON (what @simplewebauthn/browser sends on) and as
// `navigator.credentials` (so the SDK's own WebAuthn code runs unchanged), and
// refuses an rp id that is not the page's host or a parent domain of it, as a
// browser does.

export type RegistrationResponse = {
  id: string;
  rawId: string;
  type: "public-key";
  response: {
    clientDataJSON: string;
    attestationObject: string;
    transports: string[];
    publicKeyAlgorithm: number;
    publicKey: string;
    authenticatorData: string;
  };
  clientExtensionResults: Record<string, unknown>;
  authenticatorAttachment: "platform";
};

export type AuthenticationResponse = {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle: string };
  clientExtensionResults: Record<string, unknown>;
  authenticatorAttachment: "platform";
};

interface Credential {
  readonly id: string;
  readonly rpId: string;
  readonly userHandle: Uint8Array;
  readonly privateKey: CryptoKey;
  counter: number;
}

/** What a ceremony may do differently from an honest browser on the page. */
export interface CeremonyOverrides {
  /** The origin written into clientDataJSON; default the authenticator's page origin. */
  readonly origin?: string;
  /** The challenge signed instead of the one asked for. */
  readonly challenge?: string;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;
const ES256 = -7;

export const toBase64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
export const fromBase64url = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64url"));
const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const uint32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);

/** Minimal CBOR (RFC 8949): unsigned and negative integers, byte and text strings, maps. */
export function cbor(value: unknown): Uint8Array {
  const head = (major: number, n: number) => {
    if (n < 24) return new Uint8Array([(major << 5) | n]);
    if (n < 256) return new Uint8Array([(major << 5) | 24, n]);
    if (n < 65536) return new Uint8Array([(major << 5) | 25, n >> 8, n & 255]);
    return concat(new Uint8Array([(major << 5) | 26]), uint32(n));
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return concat(head(3, utf8(value).length), utf8(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  const entries: [unknown, unknown][] = value instanceof Map ? [...value] : Object.entries(value as object);
  return concat(head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

/** An ECDSA signature as WebCrypto makes it (r ‖ s) in the DER form WebAuthn uses. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = (trimmed[0] ?? 0) & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const sequence = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, sequence.length]), sequence);
}

/** Whether a page at `hostname` may use `rpId` (its host or a parent domain; a browser also refuses public suffixes). */
export function rpIdAllowed(rpId: string, hostname: string): boolean {
  return rpId === hostname || (rpId.includes(".") && hostname.endsWith(`.${rpId}`));
}

function securityError(message: string): Error {
  return new DOMException(message, "SecurityError");
}

export class SoftAuthenticator {
  readonly #credentials = new Map<string, Credential>();

  /** `origin`: the page the ceremonies run on (what a browser writes into clientDataJSON). */
  constructor(readonly origin: string) {}

  get credentialIds(): string[] {
    return [...this.#credentials.keys()];
  }

  /** Sets a credential's counter, as a cloned authenticator would present it. */
  setCounter(credentialId: string, counter: number): void {
    this.#credential(credentialId).counter = counter;
  }

  counterOf(credentialId: string): number {
    return this.#credential(credentialId).counter;
  }

  /** The create ceremony: a new ES256 credential for `rpId` and the user handle, attested with "none". */
  async register(
    o: { readonly challenge: string; readonly rpId: string; readonly userId: string },
    overrides: CeremonyOverrides = {},
  ): Promise<RegistrationResponse> {
    this.#checkRpId(o.rpId);
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", keys.publicKey));
    const spki = new Uint8Array(await crypto.subtle.exportKey("spki", keys.publicKey));
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, ES256],
        [-1, 1],
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33, 65)],
      ]),
    );
    const credentialId = crypto.getRandomValues(new Uint8Array(16));
    const id = toBase64url(credentialId);
    this.#credentials.set(id, { id, rpId: o.rpId, userHandle: fromBase64url(o.userId), privateKey: keys.privateKey, counter: 0 });

    const authenticatorData = concat(
      await sha256(utf8(o.rpId)),
      new Uint8Array([FLAG_UP | FLAG_UV | FLAG_AT]),
      uint32(0),
      new Uint8Array(16), // AAGUID: none
      new Uint8Array([credentialId.length >> 8, credentialId.length & 255]),
      credentialId,
      cose,
    );
    const clientData = this.#clientData("webauthn.create", overrides.challenge ?? o.challenge, overrides);
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64url(clientData),
        attestationObject: toBase64url(cbor({ fmt: "none", attStmt: {}, authData: authenticatorData })),
        transports: ["internal"],
        publicKeyAlgorithm: ES256,
        publicKey: toBase64url(spki),
        authenticatorData: toBase64url(authenticatorData),
      },
      clientExtensionResults: { credProps: { rk: true } },
      authenticatorAttachment: "platform",
    };
  }

  /**
   * The get ceremony: an assertion of the credential for `rpId` (the one in
   * `allowCredentials`, else the newest discoverable one), its counter moved on by one.
   */
  async authenticate(
    o: { readonly challenge: string; readonly rpId: string; readonly allowCredentials?: readonly { readonly id: string }[] },
    overrides: CeremonyOverrides & { readonly credentialId?: string } = {},
  ): Promise<AuthenticationResponse> {
    this.#checkRpId(o.rpId);
    const allowed = o.allowCredentials?.map((c) => c.id) ?? [];
    const candidates = [...this.#credentials.values()].filter(
      (c) =>
        c.rpId === o.rpId &&
        (allowed.length === 0 || allowed.includes(c.id)) &&
        (overrides.credentialId === undefined || c.id === overrides.credentialId),
    );
    const credential = candidates[candidates.length - 1];
    if (!credential) throw new DOMException("The operation either timed out or was not allowed.", "NotAllowedError");
    credential.counter += 1;
    const authenticatorData = concat(await sha256(utf8(o.rpId)), new Uint8Array([FLAG_UP | FLAG_UV]), uint32(credential.counter));
    const clientData = this.#clientData("webauthn.get", overrides.challenge ?? o.challenge, overrides);
    const signed = concat(authenticatorData, await sha256(clientData));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, credential.privateKey, signed as Uint8Array<ArrayBuffer>),
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64url(clientData),
        authenticatorData: toBase64url(authenticatorData),
        signature: toBase64url(derSignature(raw)),
        userHandle: toBase64url(credential.userHandle),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /**
   * `navigator.credentials` as a browser on the page offers it, backed by this
   * authenticator: what @simplewebauthn/browser calls (install it with
   * `vi.stubGlobal("navigator", { credentials })` and a `PublicKeyCredential` global).
   */
  credentialsContainer() {
    const buffer = (b64url: string) => {
      const bytes = fromBase64url(b64url);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    };
    const b64 = (value: BufferSource) =>
      toBase64url(value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    return {
      create: async ({ publicKey }: { publicKey: PublicKeyCredentialCreationOptions }) => {
        const rpId = publicKey.rp.id ?? new URL(this.origin).hostname;
        const made = await this.register({ challenge: b64(publicKey.challenge), rpId, userId: b64(publicKey.user.id) });
        return {
          id: made.id,
          rawId: buffer(made.rawId),
          type: made.type,
          authenticatorAttachment: made.authenticatorAttachment,
          response: {
            clientDataJSON: buffer(made.response.clientDataJSON),
            attestationObject: buffer(made.response.attestationObject),
            getTransports: () => made.response.transports,
            getPublicKeyAlgorithm: () => made.response.publicKeyAlgorithm,
            getPublicKey: () => buffer(made.response.publicKey),
            getAuthenticatorData: () => buffer(made.response.authenticatorData),
          },
          getClientExtensionResults: () => made.clientExtensionResults,
        };
      },
      get: async ({ publicKey }: { publicKey: PublicKeyCredentialRequestOptions }) => {
        const rpId = publicKey.rpId ?? new URL(this.origin).hostname;
        const allowCredentials = publicKey.allowCredentials?.map((c) => ({ id: b64(c.id) })) ?? [];
        const made = await this.authenticate({ challenge: b64(publicKey.challenge), rpId, allowCredentials });
        return {
          id: made.id,
          rawId: buffer(made.rawId),
          type: made.type,
          authenticatorAttachment: made.authenticatorAttachment,
          response: {
            clientDataJSON: buffer(made.response.clientDataJSON),
            authenticatorData: buffer(made.response.authenticatorData),
            signature: buffer(made.response.signature),
            userHandle: buffer(made.response.userHandle),
          },
          getClientExtensionResults: () => made.clientExtensionResults,
        };
      },
    };
  }

  #credential(id: string): Credential {
    const credential = this.#credentials.get(id);
    if (!credential) throw new Error(`The authenticator has no credential ${id}`);
    return credential;
  }

  #checkRpId(rpId: string): void {
    const hostname = new URL(this.origin).hostname;
    if (!rpIdAllowed(rpId, hostname))
      throw securityError(`The relying party ID "${rpId}" is not a registrable domain suffix of, nor equal to, "${hostname}".`);
  }

  #clientData(type: string, challenge: string, overrides: CeremonyOverrides): Uint8Array {
    return utf8(JSON.stringify({ type, challenge, origin: overrides.origin ?? this.origin, crossOrigin: false }));
  }
}
