/**
 * Uploaded posters, as the database and the browser see them. A title's `poster_url` holds
 * `upload:{id}` once a poster is uploaded; the files are WebP re-encodings at a few widths,
 * served at /uploads/posters/{id}-{width}.webp. Ids are random and chosen by the server; those
 * of adult titles start with `adult-` so their files stay behind the age gate (DESIGN §3.6).
 */
export const UPLOADED_POSTER_WIDTHS = [160, 320, 640] as const;
export type UploadedPosterWidth = (typeof UPLOADED_POSTER_WIDTHS)[number];

/** The width `src` points at (what browsers without srcset support load). */
export const UPLOADED_POSTER_DEFAULT_WIDTH: UploadedPosterWidth = 320;

export const UPLOADED_POSTER_PATH = "/uploads/posters/";

const ID = "(?:adult-)?[0-9a-f]{32}";
const ID_PATTERN = new RegExp(`^${ID}$`);
const VALUE_PATTERN = new RegExp(`^upload:(${ID})$`);
const WIDTH = `(${UPLOADED_POSTER_WIDTHS.join("|")})`;
const FILE_PATTERN = new RegExp(`^(${ID})-${WIDTH}\\.webp$`);

export function isUploadedPosterId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export function isAdultPosterId(id: string): boolean {
  return id.startsWith("adult-");
}

/** What `poster_url` holds for an uploaded poster. */
export function uploadedPosterValue(id: string): string {
  if (!isUploadedPosterId(id)) throw new Error(`Not an uploaded poster id: ${id}`);
  return `upload:${id}`;
}

/** The uploaded poster's id in a `poster_url` value, or undefined for anything else. */
export function uploadedPosterId(value: string | null | undefined): string | undefined {
  return value ? VALUE_PATTERN.exec(value)?.[1] : undefined;
}

/** The storage key, and the file name in the URL, of one width. */
export function uploadedPosterFile(id: string, width: UploadedPosterWidth): string {
  return `${id}-${width}.webp`;
}

export function uploadedPosterUrl(id: string, width: UploadedPosterWidth): string {
  return `${UPLOADED_POSTER_PATH}${uploadedPosterFile(id, width)}`;
}

/** Reads a requested file name strictly; anything but `{id}-{known width}.webp` is undefined. */
export function parseUploadedPosterFile(
  file: string | undefined,
): { id: string; width: UploadedPosterWidth; adult: boolean } | undefined {
  const match = file ? FILE_PATTERN.exec(file) : null;
  if (!match) return undefined;
  const id = match[1]!;
  return { id, width: Number(match[2]) as UploadedPosterWidth, adult: isAdultPosterId(id) };
}

/**
 * The address of an uploaded poster at its default width, for a `poster_url` value holding one
 * (its srcset is `posterSrcSet` of that address, as for a drawn poster).
 */
export function uploadedPosterSrc(value: string | null | undefined): string | undefined {
  const id = uploadedPosterId(value);
  return id && uploadedPosterUrl(id, UPLOADED_POSTER_DEFAULT_WIDTH);
}
