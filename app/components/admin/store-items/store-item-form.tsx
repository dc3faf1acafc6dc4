import { Form, Link, useNavigation } from "react-router";
import { CheckboxField, FormField, FormMessage } from "#app/components/form-field.tsx";
import { ImageUploadField } from "#app/components/admin/image-upload-field.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import type { StoreItemTyped } from "#app/domain/store-items/item-input.ts";

export const STORE_ITEMS_PATH = "/admin/store-items";

/** A new item's form: taxable, as most goods are in Texas. */
export const NEW_STORE_ITEM: StoreItemTyped = {
  sku: "",
  name: "",
  priceCents: "",
  stock: "0",
  taxable: "on",
  barcode: "",
};

const ticked = (value: string) => ["on", "true", "yes"].includes(value.trim().toLowerCase());

/** The back office's form for one of the store's own goods (decision 023, point 2). */
export function StoreItemForm({
  heading,
  values,
  errors,
  message,
  submitLabel,
  photo,
}: {
  heading: string;
  values: StoreItemTyped;
  errors: Record<string, string | undefined>;
  /** A refusal that is about no one field. */
  message: string | null;
  submitLabel: string;
  /** The item's current photo, shown beside the upload field. */
  photo?: { src: string; alt: string };
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="max-w-2xl">
      <h1 className="text-3xl font-bold">{heading}</h1>
      {message ? (
        <div className="mt-4">
          <FormMessage tone="error">{message}</FormMessage>
        </div>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        className="mt-6 grid gap-4 sm:grid-cols-2"
        noValidate
      >
        <FormField
          label="SKU"
          name="sku"
          required
          maxLength={40}
          autoComplete="off"
          defaultValue={values.sku}
          error={errors.sku}
        />
        <FormField
          label="Barcode (UPC/EAN)"
          name="barcode"
          inputMode="numeric"
          autoComplete="off"
          maxLength={20}
          hint="The 8, 12, 13 or 14 digits under the bars; a scanner types them here."
          defaultValue={values.barcode}
          error={errors.barcode}
        />
        <FormField
          label="Name"
          name="name"
          required
          maxLength={200}
          className="sm:col-span-2"
          defaultValue={values.name}
          error={errors.name}
        />
        <FormField
          label="Price"
          name="priceCents"
          inputMode="decimal"
          placeholder="12.99"
          required
          defaultValue={values.priceCents}
          error={errors.priceCents}
        />
        <FormField
          label="Stock"
          name="stock"
          inputMode="numeric"
          required
          hint="A change here is recorded in the item's stock history as yours."
          defaultValue={values.stock}
          error={errors.stock}
        />
        <CheckboxField
          label="Taxable (sales tax is added at the counter)"
          name="taxable"
          className="sm:col-span-2"
          defaultChecked={ticked(values.taxable)}
        />
        <ImageUploadField label="Photo" name="photo" current={photo} error={errors.photo} />
        <div className="flex gap-2 sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
          <Link to={STORE_ITEMS_PATH} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </div>
  );
}
