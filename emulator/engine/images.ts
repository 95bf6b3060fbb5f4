// Profile images (users, teams, team member profiles) and 2.8.86's project
// logos. Both versions let a client send only a base64 image of a common type
// (validateBase64Image); 2.8.86 (s3.tsx, lib/images.tsx) moves every base64
// image it is given to its storage and keeps the stored file's URL instead,
// keeps an http(s) URL, and refuses anything else. The emulator is its own storage: a file is a record
// of the state, served at `<origin>/emulator/storage/<folder>/<id>.<format>`, and named there unless the
// emulator is told the service's storage URL (`storageUrl`), as a test suite of the service expects it.
import type { EmulatorContext } from "./context.js";
import { statusFailure } from "./errors.js";

/** The storage folder of each kind of picture, as the service names them. */
export type ImageFolder = "user-profile-images" | "team-profile-images" | "team-member-profile-images" | "project-logos";

/** Where the emulator serves stored files. */
export const STORAGE_PREFIX = "/emulator/storage/";

/** The one picture a client may send (both versions): a base64 PNG, JPEG, GIF, BMP or WebP data URL, or bare base64. */
const CLIENT_IMAGE = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9+/]+={0,2}$/;

/** Whether a client may send `url` as a picture; a client's other pictures are a plain 400 "Invalid profile image URL". */
export function isClientImage(url: string): boolean {
  return CLIENT_IMAGE.test(url);
}

/** What 2.8.86 uploads: a data URL of any image subtype made of letters and digits (`svg+xml` is none). */
const BASE64_IMAGE_PREFIX = /^data:image\/[a-zA-Z0-9]+;base64,/;

/**
 * What the version keeps of a picture it is given (undefined: none given, null: removed). 2.8.86 stores a base64
 * image and answers its URL; a picture neither that nor an http(s) URL is a plain 400 "Invalid profile image URL", an
 * image it cannot read a plain 400 naming why.
 */
export function storedPictureUrl<T extends string | null | undefined>(
  ctx: EmulatorContext,
  projectId: string,
  picture: T,
  folder: ImageFolder,
): T | string {
  if (ctx.profile.profileImages === "as-given" || !picture) return picture;
  if (/^https?:\/\//.test(picture)) return picture;
  if (!BASE64_IMAGE_PREFIX.test(picture)) throw statusFailure(400, "Invalid profile image URL");
  const bytes = decodeLoosely(picture.replace(BASE64_IMAGE_PREFIX, ""));
  const format = imageFormatOf(bytes);
  if (format === null) throw statusFailure(400, "Invalid image format or corrupted image data");
  const id = `${folder}/${globalThis.crypto.randomUUID()}.${format}`;
  ctx.store.insert("files", {
    id,
    project_id: projectId,
    content_type: format === "svg" ? "image/svg+xml" : `image/${format}`,
    data_base64: encode(bytes),
    created_at_millis: ctx.now(),
  });
  return `${ctx.storageUrl}/${id}`;
}

/** Base64 decoded as Node's decoder does it: the URL-safe alphabet too, other characters skipped, up to the padding. */
function decodeLoosely(text: string): Uint8Array {
  let clean = text
    .split("=")[0]!
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/[^A-Za-z0-9+/]/g, "");
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  return Uint8Array.from(atob(clean + "=".repeat((4 - (clean.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

function encode(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const u16be = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);

/**
 * The format the service's image library reads in `bytes` (its name, as the stored file's extension), or null when
 * it reads no image: an unknown format, or a known one too short to have its size. PNG, JPEG, GIF and WebP are read
 * down to their dimensions; TIFF, HEIF/AVIF and SVG by their signature.
 */
export function imageFormatOf(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return bytes.length >= 24 && ascii(bytes, 12, 16) === "IHDR" && u16be(bytes, 18) + u16be(bytes, 22) > 0 ? "png" : null;
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")
    return bytes.length >= 10 && u16le(bytes, 6) > 0 && u16le(bytes, 8) > 0 ? "gif" : null;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegHasSize(bytes) ? "jpeg" : null;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return webpHasSize(bytes) ? "webp" : null;
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (ascii(bytes, 4, 8) === "ftyp" && /^(avif|avis|heic|heix|mif1|msf1)$/.test(ascii(bytes, 8, 12))) return "heif";
  const text = ascii(bytes, 0, Math.min(bytes.length, 1024)).trimStart();
  if ((text.startsWith("<svg") || text.startsWith("<?xml")) && text.includes("<svg")) return "svg";
  return null;
}

/** Whether a JPEG's segments reach a frame header (SOFn) that gives its size. */
function jpegHasSize(bytes: Uint8Array): boolean {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1] ?? 0;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return u16be(bytes, at + 5) > 0 && u16be(bytes, at + 7) > 0;
    at += 2 + u16be(bytes, at + 2);
  }
  return false;
}

/** Whether a WebP's first chunk (lossy, lossless or extended) gives its size. */
function webpHasSize(bytes: Uint8Array): boolean {
  const chunk = ascii(bytes, 12, 16);
  if (chunk === "VP8 ") return bytes.length >= 30 && (u16le(bytes, 26) & 0x3fff) > 0 && (u16le(bytes, 28) & 0x3fff) > 0;
  if (chunk === "VP8L") return bytes.length >= 25 && bytes[20] === 0x2f;
  // The extended header stores width and height less one: any value is a size.
  if (chunk === "VP8X") return bytes.length >= 30;
  return false;
}
