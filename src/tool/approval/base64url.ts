/** Bytes as unpadded base64url (RFC 4648 §5), the alphabet tokens travel in. */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", ""); // `=` is only ever padding
}

/**
 * The bytes of unpadded base64url text, or `undefined` unless `text` is the one canonical
 * spelling of exactly `length` bytes: a last character whose unused low bits are not zero spells
 * the same bytes as another string, and a token has to be one string, not several.
 */
export function fromBase64url(text: string, length: number): Uint8Array<ArrayBuffer> | undefined {
  if (text.length !== Math.ceil((length * 4) / 3) || !/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return base64url(bytes) === text ? bytes : undefined;
}
