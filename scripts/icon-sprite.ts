// `node scripts/icon-sprite.ts [--check]`: writes app/components/ui/icons.svg, one <symbol> per
// icon named in app/components/ui/icons.tsx, drawn from Lucide's icon data (a build-time
// dependency only). --check exits 1 when the file is not what it would write.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(root, "app/components/ui/icons.tsx");
export const SPRITE = path.join(root, "app/components/ui/icons.svg");

type IconNode = [string, Record<string, string>][];

/** The Lucide file names (`shopping-cart`) of the icons the shop uses, in the order named. */
export function iconNames(source = fs.readFileSync(SOURCE, "utf8")): string[] {
  return [...new Set([...source.matchAll(/\bicon\("([a-z0-9-]+)"\)/g)].map((m) => m[1]!))];
}

const escapeAttribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");

function draw(node: IconNode): string {
  return node
    .map(([tag, attributes]) => {
      const text = Object.entries(attributes)
        .filter(([name]) => name !== "key")
        .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
        .join("");
      return `<${tag}${text}/>`;
    })
    .join("");
}

/** The sprite's text: the same attributes Lucide puts on each of its icons, once per symbol. */
export async function buildSprite(names = iconNames()): Promise<string> {
  const symbols: string[] = [];
  for (const name of names) {
    const module = (await import(`lucide-react/icons/${name}`)) as {
      __iconData: { node: IconNode };
    };
    symbols.push(
      `<symbol id="${name}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${draw(module.__iconData.node)}</symbol>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`;
}

if (import.meta.main) {
  const sprite = await buildSprite();
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(SPRITE) ? fs.readFileSync(SPRITE, "utf8") : "";
    if (current !== sprite) {
      console.error("app/components/ui/icons.svg is out of date: run node scripts/icon-sprite.ts");
      process.exit(1);
    }
  } else {
    fs.writeFileSync(SPRITE, sprite);
    console.log(`Wrote ${iconNames().length} icons to app/components/ui/icons.svg`);
  }
}
