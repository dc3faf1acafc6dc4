import { Trash } from "#app/components/ui/icons.tsx";
import { useRef } from "react";
import { data, useFetcher } from "react-router";
import { toast } from "sonner";
import {
  CheckboxField,
  FormField,
  FormMessage,
  TextareaField,
} from "#app/components/form-field.tsx";
import { PosterImage } from "#app/components/poster-image.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "#app/components/ui/dialog.tsx";
import { useFetcherAnswer } from "#app/components/use-fetcher-answer.ts";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
import { linkComingSoon, waitingForComingSoon } from "#app/domain/alerts/alerts.server.ts";
import { notToldText, waitingLabel } from "#app/domain/alerts/status.ts";
import {
  addComingSoon,
  deleteComingSoon,
  listComingSoonForAdmin,
} from "#app/domain/catalog/coming-soon.server.ts";
import { comingSoonLinkSchema, comingSoonSchema } from "#app/domain/catalog/title-input.ts";
import { processPosterUpload, releaseUploadedPosters } from "#app/domain/posters/upload.server.ts";
import { positiveInt } from "#app/lib/http.server.ts";
import { readFormWithFiles } from "#app/lib/request.server.ts";
import { pageMeta } from "#app/lib/site.ts";
import { REFUSAL_STATUS, type RefusalReason } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.coming-soon";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Manage Coming Soon", "The Coming Soon row of the home page."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  try {
    const [entries, waiting] = await Promise.all([
      listComingSoonForAdmin(getDb()),
      waitingForComingSoon(getDb()),
    ]);
    return {
      entries: entries.map((entry) => ({ ...entry, waiting: waiting.get(entry.id) ?? 0 })),
      loadError: null,
    };
  } catch (error) {
    console.error("Coming Soon could not be loaded", error);
    return { entries: [], loadError: (error as Error).message };
  }
}

type Values = { title: string; releaseDate: string; description: string };

/** The answer to linking an entry: its id, so only that entry's form shows it. */
type LinkAnswer = {
  intent: "link";
  id: number;
  linked: boolean;
  message: string;
  /** As typed, for the form shown again without JavaScript. */
  regSerialNo: string;
  errors: Record<string, string | undefined>;
};

async function link(fields: Record<string, string>) {
  const answer = (
    reason: RefusalReason | null,
    rest: Omit<LinkAnswer, "intent" | "id" | "regSerialNo">,
  ) =>
    data<LinkAnswer>(
      {
        intent: "link",
        id: positiveInt(fields.id) ?? 0,
        regSerialNo: fields.regSerialNo ?? "",
        ...rest,
      },
      { status: reason ? REFUSAL_STATUS[reason] : 200 },
    );
  const parsed = comingSoonLinkSchema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return answer("invalid", { linked: false, message: Object.values(errors)[0] ?? "", errors });
  }
  const result = await linkComingSoon(getDb(), {
    comingSoonId: parsed.data.id,
    regSerialNo: parsed.data.regSerialNo,
    retire: parsed.data.retire,
  });
  if (!result.ok) {
    const notFound = result.reason === "not-found";
    return answer(result.reason, {
      linked: false,
      message: result.message,
      errors: notFound ? {} : { regSerialNo: result.message },
    });
  }
  if (result.retiredPoster) await releaseUploadedPosters(getDb(), [result.retiredPoster]);
  return answer(null, { linked: true, message: result.message, errors: {} });
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdminAction(request);
  const { fields, files } = await readFormWithFiles(request);
  if (fields.intent === "delete") {
    const id = positiveInt(fields.id);
    const deleted = id ? await deleteComingSoon(getDb(), id) : null;
    if (deleted === null)
      return data(
        { deleted: false, message: "That entry was already deleted." },
        { status: REFUSAL_STATUS["not-found"] },
      );
    await releaseUploadedPosters(getDb(), [deleted.posterUrl]);
    return {
      deleted: true,
      message: "Entry deleted",
      waiting: deleted.endedAlerts > 0 ? notToldText(deleted.endedAlerts) : undefined,
    };
  }
  if (fields.intent === "link") return link(fields);

  const values: Values = {
    title: fields.title ?? "",
    releaseDate: fields.releaseDate ?? "",
    description: fields.description ?? "",
  };
  const parsed = comingSoonSchema.safeParse(values);
  const errors: Record<string, string | undefined> = parsed.success
    ? {}
    : fieldErrors(parsed.error);
  const file = files.poster;
  if (!file) errors.poster = "Poster is required";
  if (!parsed.success || !file) return data({ added: false, values, errors }, { status: 400 });

  const upload = await processPosterUpload(new Uint8Array(await file.arrayBuffer()), file.name, {
    kind: "coming-soon",
  });
  if (!upload.ok) {
    if (upload.cause) console.error("Poster upload failed", upload.cause);
    return data({ added: false, values, errors: { poster: upload.message } }, { status: 400 });
  }
  try {
    await addComingSoon(getDb(), { ...parsed.data, posterUrl: upload.posterUrl });
  } catch (error) {
    await releaseUploadedPosters(getDb(), [upload.posterUrl]);
    throw error;
  }
  return { added: true, values: { title: "", releaseDate: "", description: "" }, errors: {} };
}

/** Deletions share one fetcher, so their answer outlives the row they removed. */
const DELETE_FETCHER = "coming-soon-delete";
/** Links too: a retired entry's row goes with its link form. */
const LINK_FETCHER = "coming-soon-link";

/** Link an entry to its title once it is in the catalogue; its waiting release alerts go out. */
function LinkEntry({
  id,
  title,
  answer,
}: {
  id: number;
  title: string;
  /** The last link answer, whichever entry it was for (without JavaScript: the action's). */
  answer: LinkAnswer | undefined;
}) {
  const fetcher = useFetcher({ key: LINK_FETCHER });
  const mine = answer?.id === id ? answer : undefined;
  const forTitle = <span className="sr-only"> for {title}</span>;
  return (
    <fetcher.Form method="post" noValidate className="flex flex-wrap items-end gap-x-4 gap-y-2">
      <input type="hidden" name="intent" value="link" />
      <input type="hidden" name="id" value={id} />
      <FormField
        label={<>Catalogue serial number{forTitle}</>}
        name="regSerialNo"
        inputMode="numeric"
        autoComplete="off"
        required
        className="w-48"
        defaultValue={mine && !mine.linked ? mine.regSerialNo : undefined}
        error={mine?.errors.regSerialNo}
      />
      <CheckboxField
        label={<>Remove it from Coming Soon{forTitle}</>}
        name="retire"
        defaultChecked
        className="h-9"
      />
      <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== "idle"}>
        Link and send release alerts{forTitle}
      </Button>
    </fetcher.Form>
  );
}

/**
 * Deletion is permanent after a confirmation (spec §4), which says who is waiting for the
 * release: their alerts end with the entry and nobody is e-mailed.
 */
function DeleteEntry({ id, title, waiting }: { id: number; title: string; waiting: number }) {
  const fetcher = useFetcher({ key: DELETE_FETCHER });
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`Delete ${title}`}>
          <Trash aria-hidden="true" />
          Delete
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete Coming Soon entry</DialogTitle>
          <DialogDescription>
            {`Delete "${title}"? This cannot be undone.`}
            {waiting > 0 ? ` ${notToldText(waiting)}` : ""}
          </DialogDescription>
        </DialogHeader>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={id} />
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={fetcher.state !== "idle"}>
              Delete
            </Button>
          </DialogFooter>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}

export default function ManageComingSoon({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const form = useRef<HTMLFormElement>(null);
  const result = fetcher.data && "added" in fetcher.data ? fetcher.data : null;
  useFetcherAnswer(fetcher, (answer) => {
    if ("added" in answer && answer.added) {
      toast.success("Uploaded poster");
      toast.success("Added coming soon title");
      form.current?.reset();
    }
  });
  const deletion = useFetcher<{ deleted: boolean; message: string; waiting?: string }>({
    key: DELETE_FETCHER,
  });
  useFetcherAnswer(deletion, (answer) => {
    if (answer.deleted) toast.success(answer.message, { description: answer.waiting });
    else toast.error(answer.message);
  });
  const linking = useFetcher<LinkAnswer>({ key: LINK_FETCHER });
  useFetcherAnswer(linking, (answer) => {
    if (answer.linked) toast.success(answer.message);
    else if (!answer.errors.regSerialNo) toast.error(answer.message);
  });
  // Without JavaScript the forms post as the page itself: the answer comes as its action data.
  const shownAction = actionData && "intent" in actionData ? actionData : undefined;
  const linkAnswer = linking.data ?? shownAction;
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const values = result && !result.added ? result.values : undefined;

  return (
    <>
      <h1 className="text-3xl font-bold">Manage Coming Soon</h1>
      <div className="mt-6 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="coming-soon-list">
          <h2 id="coming-soon-list" className="text-lg font-semibold">
            Coming Soon ({loaderData.entries.length})
          </h2>
          {shownAction && (shownAction.linked || !shownAction.errors.regSerialNo) ? (
            <div className="mt-2">
              <FormMessage tone={shownAction.linked ? "success" : "error"}>
                {shownAction.message}
              </FormMessage>
            </div>
          ) : null}
          {loaderData.loadError ? (
            <p className="mt-2 font-medium text-destructive">Load failed: {loaderData.loadError}</p>
          ) : null}
          <ul
            className="mt-3 h-[400px] divide-y overflow-y-auto rounded-xl border bg-card"
            aria-label="Coming Soon entries"
            tabIndex={0}
          >
            {loaderData.entries.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-3 p-3">
                <div className="flex items-center gap-3">
                  <PosterImage src={entry.poster} alt="" className="w-12 shrink-0" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{entry.title}</p>
                    <p className="text-sm text-muted-foreground">
                      {entry.releaseDate} ·{" "}
                      {entry.linkedTitle
                        ? `Out now as ${entry.linkedTitle.title} (${entry.linkedTitle.serialNo})`
                        : entry.waiting > 0
                          ? `${waitingLabel(entry.waiting)} for its release`
                          : "Nobody waiting yet"}
                    </p>
                  </div>
                  <DeleteEntry id={entry.id} title={entry.title} waiting={entry.waiting} />
                </div>
                <LinkEntry id={entry.id} title={entry.title} answer={linkAnswer} />
              </li>
            ))}
            {loaderData.entries.length === 0 && !loaderData.loadError ? (
              <li className="p-3 text-muted-foreground">Nothing coming soon yet.</li>
            ) : null}
          </ul>
        </section>
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
      </div>
    </>
  );
}
