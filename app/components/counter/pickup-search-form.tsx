import type { ComponentProps } from "react";
import { Form } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";

/** What the clerk searched pickups by (kept in the address) and what was wrong with it. */
export type TypedSearch = {
  values: Record<string, string>;
  errors: Record<string, string | undefined>;
};

type SearchField = Omit<ComponentProps<typeof FormField>, "defaultValue" | "error"> & {
  name: string;
};

/**
 * One way of finding a web order to hand over: a GET form whose fields show what was searched
 * and what was wrong with it, so a search (or a scan) is also an address.
 */
export function PickupSearchForm({
  heading,
  fields,
  submit,
  search,
}: {
  heading: string;
  fields: SearchField[];
  /** The button's text. */
  submit: string;
  search: TypedSearch;
}) {
  return (
    <Form method="get" className="flex flex-col gap-3 rounded-md border p-4">
      <h2 className="text-lg font-semibold">{heading}</h2>
      {fields.map((field) => (
        <FormField
          key={field.name}
          {...field}
          defaultValue={search.values[field.name] ?? ""}
          error={search.errors[field.name]}
        />
      ))}
      <div>
        <Button type="submit">{submit}</Button>
      </div>
    </Form>
  );
}
