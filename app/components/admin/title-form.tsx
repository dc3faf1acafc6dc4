import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import {
  DISCS,
  RELEASE_YEAR_FORMAT_MESSAGE,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
  type ProductType,
} from "#app/lib/catalog.ts";
import { FormField, FormMessage, SelectField, TextareaField } from "../form-field.tsx";
import { Button, buttonVariants } from "../ui/button.tsx";
import { ImageUploadField } from "./image-upload-field.tsx";

type FieldSpec = {
  name: string;
  /** The spec's field name, shown as the label. */
  label: string;
  kind?: "text" | "textarea" | "disc" | "number";
  inputMode?: "numeric" | "decimal";
  /** The range a number field offers; the schema still checks what arrives. */
  min?: number;
  max?: number;
  /**
   * A number field's message for what the browser cannot read as a number ("1999."): the
   * browser would send it empty, so the form says so here instead of sending it.
   */
  notANumber?: string;
  placeholder?: string;
  required?: boolean;
  wide?: boolean;
};

export const REGULAR_FIELDS: FieldSpec[] = [
  { name: "productId", label: "ProductID", required: true },
  { name: "qtyToList", label: "QtyToList", inputMode: "numeric", required: true },
  { name: "title", label: "Title", required: true, wide: true },
  {
    name: "releaseYear",
    label: "Release Year",
    kind: "number",
    min: RELEASE_YEAR_MIN,
    max: RELEASE_YEAR_MAX,
    notANumber: RELEASE_YEAR_FORMAT_MESSAGE,
    placeholder: "YYYY",
  },
  { name: "disc", label: "Disc", kind: "disc", required: true },
  { name: "type", label: "Type" },
  {
    name: "currentPriceCents",
    label: "CurrentPrice",
    inputMode: "decimal",
    placeholder: "12.99",
    required: true,
  },
  { name: "description", label: "Description", kind: "textarea", wide: true },
  { name: "genres", label: "Genres", wide: true },
  { name: "director", label: "Director" },
  { name: "cast", label: "Cast", wide: true },
  {
    name: "barcode",
    label: "Barcode (UPC/EAN)",
    inputMode: "numeric",
    placeholder: "Scan or type the digits",
  },
];

export const ADULT_FIELDS: FieldSpec[] = [
  { name: "productId", label: "ProductID", inputMode: "numeric", required: true },
  { name: "condition", label: "Condition" },
  {
    name: "priceCents",
    label: "Price",
    inputMode: "decimal",
    placeholder: "12.99",
    required: true,
  },
  { name: "quantity", label: "Quantity", inputMode: "numeric", required: true },
  { name: "title", label: "Title", required: true, wide: true },
  { name: "production", label: "Production" },
  { name: "releaseDate", label: "Release Date", placeholder: "YYYY-MM-DD" },
  { name: "description", label: "Description", kind: "textarea", wide: true },
  {
    name: "barcode",
    label: "Barcode (UPC/EAN)",
    inputMode: "numeric",
    placeholder: "Scan or type the digits",
  },
];

/** Each catalogue's form, for its add and edit pages (one route module serves both catalogues). */
export const CATALOGUE_FORMS = {
  regular: {
    name: "Regular",
    fields: REGULAR_FIELDS,
    serialColumn: "RegSerialNo",
    listPath: "/admin/items",
    newValues: { qtyToList: "1" },
    described: "a regular title",
  },
  adult: {
    name: "Adult",
    fields: ADULT_FIELDS,
    serialColumn: "AdultSerialNo",
    listPath: "/admin/adult/items",
    newValues: { quantity: "1" },
    described: "an adult title",
  },
} as const satisfies Record<ProductType, unknown>;

/** The catalogue a back-office page belongs to, from its address. */
export function catalogueOfPath(pathname: string): ProductType {
  return pathname.startsWith("/admin/adult/") ? "adult" : "regular";
}

/**
 * The add and edit form of both catalogues (spec: the adult edit form reuses the regular one):
 * the spec's field names as labels, each message next to its field, typed values kept.
 */
export function TitleForm({
  heading,
  fields,
  values,
  errors,
  message,
  submitLabel,
  cancelHref,
  poster,
}: {
  heading: string;
  fields: FieldSpec[];
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
  message: string | null;
  submitLabel: string;
  cancelHref: string;
  /** The title's current poster, shown beside the upload field. */
  poster?: { src: string; alt: string };
}) {
  const navigation = useNavigation();
  /** Number fields whose typed text the browser could not read, by name, with their message. */
  const [unreadable, setUnreadable] = useState<Record<string, string>>({});
  return (
    <>
      <h1 className="text-3xl font-bold">{heading}</h1>
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-6 grid max-w-3xl gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          const found: Record<string, string> = {};
          for (const field of fields) {
            const input = event.currentTarget.elements.namedItem(field.name);
            if (field.notANumber && input instanceof HTMLInputElement && input.validity.badInput) {
              found[field.name] = field.notANumber;
            }
          }
          setUnreadable(found);
          const first = Object.keys(found)[0];
          if (!first) return;
          event.preventDefault();
          (event.currentTarget.elements.namedItem(first) as HTMLInputElement).focus();
        }}
      >
        {message ? (
          <div className="sm:col-span-2">
            <FormMessage tone="error">{message}</FormMessage>
          </div>
        ) : null}
        {fields.map((field) => {
          const common = {
            name: field.name,
            defaultValue: values[field.name] ?? "",
            required: field.required,
          };
          const wide = field.wide ? "sm:col-span-2" : undefined;
          if (field.kind === "disc") {
            return (
              <SelectField
                key={field.name}
                label={field.label}
                error={errors[field.name]}
                className={wide}
                {...common}
                placeholder="Choose a disc"
                options={DISCS}
              />
            );
          }
          if (field.kind === "textarea") {
            return (
              <TextareaField
                key={field.name}
                label={field.label}
                rows={5}
                maxLength={5000}
                error={errors[field.name]}
                className={wide}
                {...common}
              />
            );
          }
          return (
            <FormField
              key={field.name}
              label={field.label}
              type={field.kind === "number" ? "number" : undefined}
              min={field.min}
              max={field.max}
              inputMode={field.inputMode}
              placeholder={field.placeholder}
              error={unreadable[field.name] ?? errors[field.name]}
              onInput={
                unreadable[field.name]
                  ? () => setUnreadable(({ [field.name]: _, ...rest }) => rest)
                  : undefined
              }
              className={wide}
              {...common}
            />
          );
        })}
        <ImageUploadField label="Poster" name="poster" current={poster} error={errors.poster} />
        <div className="flex flex-wrap gap-3 sm:col-span-2">
          <Button type="submit" size="lg" disabled={navigation.state !== "idle"}>
            {submitLabel}
          </Button>
          <Link to={cancelHref} className={buttonVariants({ size: "lg", variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </>
  );
}
