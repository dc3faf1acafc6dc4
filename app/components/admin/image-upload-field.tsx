import { FormField } from "../form-field.tsx";
import { PosterImage } from "../poster-image.tsx";

/**
 * A back-office form's image (a title's poster, a store item's photo): the current one beside a
 * file field that replaces it. The server checks and re-encodes what is chosen.
 */
export function ImageUploadField({
  label,
  name,
  current,
  error,
}: {
  label: "Poster" | "Photo";
  name: string;
  current?: { src: string; alt: string };
  error?: string;
}) {
  return (
    <div className="flex items-end gap-4 sm:col-span-2">
      {current ? (
        <PosterImage src={current.src} alt={current.alt} className="w-20 shrink-0" />
      ) : null}
      <FormField
        label={label}
        name={name}
        type="file"
        accept="image/jpeg,image/png,image/webp,image/avif"
        hint={`JPEG, PNG, WebP or AVIF, up to 10 MB. Leave empty to keep the current ${label.toLowerCase()}.`}
        error={error}
        className="flex-1"
      />
    </div>
  );
}
