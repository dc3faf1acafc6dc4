import fs from "node:fs";

/**
 * Which request paths are looked for among the build's public files (outside /assets, which has
 * a handler of its own): those naming one of its top-level files, or something in one of its
 * top-level folders. Anything else (a page, a drawn poster under /posters, an upload under
 * /uploads) goes straight to the app, without a file-system look-up that would fail.
 */
export function publicFileAddresses(client: string): (path: string) => boolean {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const entry of fs.readdirSync(client, { withFileTypes: true })) {
    if (entry.name === "assets") continue;
    (entry.isDirectory() ? folders : files).add(entry.name);
  }
  return (path) => {
    const [, first = "", ...rest] = path.split("/");
    return rest.length === 0 ? files.has(first) : folders.has(first);
  };
}
