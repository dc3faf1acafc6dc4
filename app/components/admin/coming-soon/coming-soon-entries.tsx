import type { Answer } from "#app/lib/answer.ts";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { CheckboxField, FormField, FormMessage } from "#app/components/form-field.tsx";
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
import { Trash } from "#app/components/ui/icons.tsx";
import { useFetcherAnswer } from "#app/components/use-fetcher-answer.ts";
import { notToldText, waitingLabel } from "#app/domain/alerts/status.ts";
import type { listComingSoonForAdmin } from "#app/domain/catalog/coming-soon.server.ts";

/** The answer to linking an entry: its id, so only that entry's form shows it. */
export type LinkAnswer = Answer<{ regSerialNo: string }> & { intent: "link"; id: number };

type Entry = Awaited<ReturnType<typeof listComingSoonForAdmin>>[number] & { waiting: number };

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
        defaultValue={mine && !mine.ok ? mine.values?.regSerialNo : undefined}
        error={mine?.errors?.regSerialNo}
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

/**
 * The Coming Soon list: each entry with who is waiting for it, its link to the catalogue and
 * its deletion, whose answers are told in toasts (or, without JavaScript, above the list).
 */
export function ComingSoonEntries({
  entries,
  loadError,
  shownAction,
}: {
  entries: Entry[];
  loadError: string | null;
  /** The link answer without JavaScript: the forms posted as the page itself. */
  shownAction: LinkAnswer | undefined;
}) {
  const deletion = useFetcher<Answer & { waiting?: string }>({ key: DELETE_FETCHER });
  useFetcherAnswer(deletion, (answer) => {
    if (answer.ok) toast.success(answer.message, { description: answer.waiting });
    else toast.error(answer.message);
  });
  const linking = useFetcher<LinkAnswer>({ key: LINK_FETCHER });
  useFetcherAnswer(linking, (answer) => {
    if (answer.ok) toast.success(answer.message);
    else if (!answer.errors?.regSerialNo) toast.error(answer.message);
  });
  const linkAnswer = linking.data ?? shownAction;
  return (
    <section aria-labelledby="coming-soon-list">
      <h2 id="coming-soon-list" className="text-lg font-semibold">
        Coming Soon ({entries.length})
      </h2>
      {shownAction && (shownAction.ok || !shownAction.errors?.regSerialNo) ? (
        <div className="mt-2">
          <FormMessage tone={shownAction.ok ? "success" : "error"}>
            {shownAction.message}
          </FormMessage>
        </div>
      ) : null}
      {loadError ? (
        <p className="mt-2 font-medium text-destructive">Load failed: {loadError}</p>
      ) : null}
      <ul
        className="mt-3 h-[400px] divide-y overflow-y-auto rounded-xl border bg-card"
        aria-label="Coming Soon entries"
        tabIndex={0}
      >
        {entries.map((entry) => (
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
        {entries.length === 0 && !loadError ? (
          <li className="p-3 text-muted-foreground">Nothing coming soon yet.</li>
        ) : null}
      </ul>
    </section>
  );
}
