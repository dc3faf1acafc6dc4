import fs from "node:fs";
import * as prettier from "prettier";

/**
 * Writes a benchmark's Markdown report formatted as the repository's lint checks it (Prettier),
 * so a report can be committed as it was written.
 */
export async function writeMarkdown(file: string, text: string): Promise<void> {
  fs.writeFileSync(file, await prettier.format(text, { filepath: file }));
}
