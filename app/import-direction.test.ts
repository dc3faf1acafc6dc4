import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import direction (shared → domain → routes) is the lint's job (eslint.config.js): these
// lint a wrong import placed in each folder, as the editor and `npm test` would.
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "..") });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

describe("import direction", () => {
  it("keeps routes and components out of a domain", async () => {
    const errors = await restrictedImports(
      "app/domain/orders/wrong-way.server.ts",
      'import { loader } from "#app/routes/cart.tsx";\nimport { Button } from "#app/components/ui/button.tsx";\nexport const used = [loader, Button];\n',
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("shared → domain → routes");
  });

  it("lets a domain use lib and another domain", async () => {
    expect(
      await restrictedImports(
        "app/domain/orders/right-way.server.ts",
        'import { formatUsd } from "#app/lib/money.ts";\nimport { ticketLabel } from "#app/domain/repair-tickets/status.ts";\nexport const used = [formatUsd, ticketLabel];\n',
      ),
    ).toEqual([]);
  });

  it("lets the schema and the e-mails take only the types of a status.ts", async () => {
    const typeOnly =
      'import type { ReturnStatus } from "#app/domain/returns/status.ts";\nexport type Used = ReturnStatus;\n';
    expect(await restrictedImports("app/db/wrong-way.ts", typeOnly)).toEqual([]);
    expect(await restrictedImports("app/emails/wrong-way.ts", typeOnly)).toEqual([]);

    const value =
      'import { returnLabel } from "#app/domain/returns/status.ts";\nexport const used = returnLabel;\n';
    expect(await restrictedImports("app/db/wrong-way.ts", value)).toHaveLength(1);
    expect(await restrictedImports("app/emails/wrong-way.ts", value)).toHaveLength(1);

    const workflow =
      'import type { Return } from "#app/domain/returns/returns.server.ts";\nexport type Used = Return;\n';
    expect(await restrictedImports("app/db/wrong-way.ts", workflow)).toHaveLength(1);
    expect(await restrictedImports("app/emails/wrong-way.ts", workflow)).toHaveLength(1);
  });

  it("keeps the database and the domains out of lib, server-only modules included", async () => {
    const database =
      'import { getDb } from "#app/db/client.server.ts";\nexport const used = getDb;\n';
    expect(await restrictedImports("app/lib/wrong-way.ts", database)).not.toEqual([]);
    expect(await restrictedImports("app/lib/wrong-way.server.ts", database)).toHaveLength(1);

    const domain =
      'import { staffOf } from "#app/domain/accounts/staff.ts";\nexport const used = staffOf;\n';
    expect(await restrictedImports("app/lib/wrong-way.ts", domain)).toHaveLength(1);
  });

  it("still refuses relative imports across folders where the direction rules apply", async () => {
    const errors = await restrictedImports(
      "app/domain/orders/wrong-way.server.ts",
      'import { formatUsd } from "../../lib/money.ts";\nexport const used = formatUsd;\n',
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("#app/");
  });
});
