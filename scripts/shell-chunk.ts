import path from "node:path";

const appDir = `${path.resolve(import.meta.dirname, "../app")}${path.sep}`;

type Context = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

/**
 * Two chunks for what the root route imports, which every page loads: the shop's own modules
 * (the header, the search box, the cart's provider, the footer, the toasts and what they use) in
 * one, the libraries they use in another (kept apart so a release of the shop's code leaves the
 * libraries' file in the browser's cache). One file compresses better than twenty small ones, and
 * costs one request (decision 006's first-load budget).
 */
export function shellChunks(rootModule: string) {
  let shell: Map<string, "shell" | "shell-libraries"> | undefined;
  const chunkOf = (moduleId: string, ctx: Context) => {
    if (!shell) {
      const found = new Map<string, "shell" | "shell-libraries">();
      const queue = [rootModule];
      while (queue.length > 0) {
        for (const imported of ctx.getModuleInfo(queue.pop()!)?.importedIds ?? []) {
          if (found.has(imported) || imported === rootModule) continue;
          found.set(imported, imported.startsWith(appDir) ? "shell" : "shell-libraries");
          queue.push(imported);
        }
      }
      shell = found;
    }
    return shell.get(moduleId);
  };
  return [
    {
      name: (id: string, ctx: Context) =>
        chunkOf(id, ctx) === "shell-libraries" ? "shell-libraries" : null,
      priority: 2,
    },
    {
      name: (id: string, ctx: Context) => (chunkOf(id, ctx) === "shell" ? "shell" : null),
      priority: 1,
    },
  ];
}
