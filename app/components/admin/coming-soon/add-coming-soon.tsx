import { useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import type { Answer } from "#app/lib/answer.ts";
import { FormField, FormMessage, TextareaField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useFetcherAnswer } from "#app/components/use-fetcher-answer.ts";
import { errorsOf } from "#app/lib/answer.ts";

type Values = { title: string; releaseDate: string; description: string };

/** The answer to adding an entry. */
export type AddAnswer = Answer<Values> & { intent: "add" };

/** Add a title to Coming Soon with its poster; the form empties once it is added. */
export function AddComingSoon() {
  const fetcher = useFetcher<AddAnswer>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data?.intent === "add" ? fetcher.data : null;
  useFetcherAnswer(fetcher, (answer) => {
    if (answer.intent === "add" && answer.ok) {
      toast.success("Uploaded poster");
      toast.success("Added coming soon title");
      form.current?.reset();
    }
  });
  const errors: Record<string, string | undefined> = errorsOf(result);
  const values = result && !result.ok ? result.values : undefined;
  return (
    <section aria-labelledby="coming-soon-add">
      <h2 id="coming-soon-add" className="text-lg font-semibold">
        Add a title
      </h2>
      <fetcher.Form
        ref={form}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="mt-3 flex flex-col gap-4"
      >
        {Object.keys(errors).length > 0 ? (
          <FormMessage tone="error">Please correct the fields below.</FormMessage>
        ) : null}
        <FormField
          label="Title"
          name="title"
          required
          maxLength={300}
          defaultValue={values?.title}
          error={errors.title}
        />
        <FormField
          label="Release date"
          name="releaseDate"
          type="date"
          required
          defaultValue={values?.releaseDate}
          error={errors.releaseDate}
        />
        <TextareaField
          label="Description"
          name="description"
          rows={4}
          maxLength={2000}
          defaultValue={values?.description}
        />
        <FormField
          label="Poster"
          name="poster"
          type="file"
          required
          accept="image/jpeg,image/png,image/webp,image/avif"
          hint="JPEG, PNG, WebP or AVIF, up to 10 MB."
          error={errors.poster}
        />
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          Add Coming Soon Title
        </Button>
      </fetcher.Form>
    </section>
  );
}
