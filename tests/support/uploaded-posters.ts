import { uploadedPosterId } from "#app/lib/uploaded-posters.ts";
import { loader } from "#app/routes/uploads.posters.$file.ts";

/**
 * The status the shop answers for the 320-pixel file of an uploaded poster (a title's, or a store
 * item's photo, kept the same way), given the value its table holds (`upload:{id}`).
 */
export async function servedStatus(posterUrl: string | null | undefined): Promise<number> {
  const file = `${uploadedPosterId(posterUrl)}-320.webp`;
  const result = await loader({
    params: { file },
    request: new Request(`http://shop.test/uploads/posters/${file}`),
  } as Parameters<typeof loader>[0]);
  return result instanceof Response ? result.status : (result.init?.status ?? 200);
}
