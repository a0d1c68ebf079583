/** Hex and base64 codecs that reject malformed input instead of guessing. */

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export const hex = {
  encode(bytes: Uint8Array): string {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  },
  decode(text: string): Uint8Array {
    if (!HEX.test(text)) throw new TypeError(`not hex: ${JSON.stringify(text.slice(0, 40))}`);
    return new Uint8Array(Buffer.from(text, "hex"));
  },
};

/** Standard base64; padding optional on decode. */
export const base64 = {
  encode(bytes: Uint8Array): string {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  },
  decode(text: string): Uint8Array {
    if (!BASE64.test(text)) throw new TypeError(`not base64: ${JSON.stringify(text.slice(0, 40))}`);
    return new Uint8Array(Buffer.from(text, "base64"));
  },
};

export const base64url = {
  encode(bytes: Uint8Array): string {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
  },
  decode(text: string): Uint8Array {
    if (!BASE64URL.test(text)) throw new TypeError(`not base64url: ${JSON.stringify(text.slice(0, 40))}`);
    return new Uint8Array(Buffer.from(text, "base64url"));
  },
};
