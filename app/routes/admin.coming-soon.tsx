import { AddComingSoon } from "#app/components/admin/coming-soon/add-coming-soon.tsx";
import {
  ComingSoonEntries,
  type LinkAnswer,
} from "#app/components/admin/coming-soon/coming-soon-entries.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireStaff, requireStaffAction } from "#app/domain/accounts/session.server.ts";
import { linkComingSoon, waitingForComingSoon } from "#app/domain/alerts/alerts.server.ts";
import { notToldText } from "#app/domain/alerts/status.ts";
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
import { reply } from "#app/lib/reply.server.ts";
import type { Route } from "./+types/admin.coming-soon";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Manage Coming Soon", "The Coming Soon row of the home page."),
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "catalogue");
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

async function link(fields: Record<string, string>) {
  const which = { intent: "link" as const, id: positiveInt(fields.id) ?? 0 };
  const values = { regSerialNo: fields.regSerialNo ?? "" };
  const parsed = comingSoonLinkSchema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return reply.refused("invalid", Object.values(errors)[0] ?? "", { ...which, errors, values });
  }
  const result = await linkComingSoon(getDb(), {
    comingSoonId: parsed.data.id,
    regSerialNo: parsed.data.regSerialNo,
    retire: parsed.data.retire,
  });
  if (!result.ok) {
    const errors = result.reason === "not-found" ? {} : { regSerialNo: result.message };
    return reply.refused(result.reason, result.message, { ...which, errors, values });
  }
  if (result.retiredPoster) await releaseUploadedPosters(getDb(), [result.retiredPoster]);
  return reply.ok(result.message, which);
}

export async function action({ request }: Route.ActionArgs) {
  await requireStaffAction(request, "catalogue");
  const { fields, files } = await readFormWithFiles(request);
  if (fields.intent === "delete") {
    const id = positiveInt(fields.id);
    const deleted = id ? await deleteComingSoon(getDb(), id) : null;
    if (deleted === null)
      return reply.refused("not-found", "That entry was already deleted.", { intent: "delete" });
    await releaseUploadedPosters(getDb(), [deleted.posterUrl]);
    return reply.ok("Entry deleted", {
      intent: "delete",
      waiting: deleted.endedAlerts > 0 ? notToldText(deleted.endedAlerts) : undefined,
    });
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
  const added = { intent: "add" as const };
  const refused = (fieldErrors: typeof errors) =>
    reply.refused("invalid", "Please correct the fields below.", {
      ...added,
      errors: fieldErrors,
      values,
    });
  if (!parsed.success || !file) return refused(errors);

  const upload = await processPosterUpload(new Uint8Array(await file.arrayBuffer()), file.name, {
    kind: "coming-soon",
  });
  if (!upload.ok) {
    if (upload.cause) console.error("Poster upload failed", upload.cause);
    return refused({ poster: upload.message });
  }
  try {
    await addComingSoon(getDb(), { ...parsed.data, posterUrl: upload.posterUrl });
  } catch (error) {
    await releaseUploadedPosters(getDb(), [upload.posterUrl]);
    throw error;
  }
  return reply.ok("Added coming soon title", {
    ...added,
    values: { title: "", releaseDate: "", description: "" },
  });
}

export default function ManageComingSoon({ loaderData, actionData }: Route.ComponentProps) {
  // Without JavaScript the forms post as the page itself: the answer comes as its action data.
  const shownAction = actionData?.intent === "link" ? (actionData as LinkAnswer) : undefined;
  return (
    <>
      <h1 className="text-3xl font-bold">Manage Coming Soon</h1>
      <div className="mt-6 grid grid-cols-1 gap-8 lg:grid-cols-[1fr_22rem]">
        <ComingSoonEntries
          entries={loaderData.entries}
          loadError={loaderData.loadError}
          shownAction={shownAction}
        />
        <AddComingSoon />
      </div>
    </>
  );
}
