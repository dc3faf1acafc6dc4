import { data } from "react-router";
import { cleanText } from "./clean-text.ts";

function badRequest(error: string): never {
  throw data({ error }, { status: 400 });
}

/**
 * The one way actions read a submitted form: URL-encoded or multipart bodies only (anything
 * else, or a broken body, is a 400, never a 500), text fields cleaned of control characters,
 * files left out (upload routes read files themselves). Repeated names keep the first value.
 */
export async function readForm(request: Request): Promise<Record<string, string>> {
  return (await readFormWithFiles(request)).fields;
}

/**
 * The same, keeping the files too (upload forms): `files` has the first file of each name,
 * `fileLists` every file of it (an input that takes several). A file input left empty sends a
 * part without a file name, which is left out; a chosen file that is empty is kept, so the
 * upload's own check can say so instead of the form being saved without it.
 */
export async function readFormWithFiles(request: Request): Promise<{
  fields: Record<string, string>;
  files: Record<string, File>;
  fileLists: Record<string, File[]>;
}> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    badRequest("Send the form as application/x-www-form-urlencoded or multipart/form-data.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    badRequest("The form could not be read.");
  }
  const fields: Record<string, string> = {};
  const files: Record<string, File> = {};
  const fileLists: Record<string, File[]> = {};
  for (const [name, value] of form) {
    if (typeof value === "string") {
      if (!(name in fields)) fields[name] = cleanText(value);
    } else if (value.name !== "" || value.size > 0) {
      files[name] ??= value;
      (fileLists[name] ??= []).push(value);
    }
  }
  return { fields, files, fileLists };
}

/** The one way endpoints read a JSON body: anything that is not JSON is a 400. */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!/^application\/json\b/i.test(type)) badRequest("Send the body as application/json.");
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    badRequest("The body must be JSON.");
  }
  return cleanStrings(body);
}

function cleanStrings(value: unknown): unknown {
  if (typeof value === "string") return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanStrings);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, cleanStrings(item)]),
    );
  }
  return value;
}
