import { data } from "react-router";
import { AddComingSoon } from "#app/components/admin/coming-soon/add-coming-soon.tsx";
import {
  ComingSoonEntries,
  type LinkAnswer,
} from "#app/components/admin/coming-soon/coming-soon-entries.tsx";
import { getDb } from "#app/db/client.server.ts";
import { fieldErrors } from "#app/domain/accounts/forms.ts";
import { requireAdmin, requireAdminAction } from "#app/domain/accounts/session.server.ts";
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

export default function ManageComingSoon({ loaderData, actionData }: Route.ComponentProps) {
  // Without JavaScript the forms post as the page itself: the answer comes as its action data.
  const shownAction = actionData && "intent" in actionData ? actionData : undefined;
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
