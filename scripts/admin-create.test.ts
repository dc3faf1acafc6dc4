import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { emptyDatabase } from "#tests/support/empty-database.ts";
import pg from "pg";

// `npm run admin:create` run as an operator runs it, against a database of its own.

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { url: databaseUrl } = emptyDatabase("admin_create");

async function adminCreate(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/admin-create.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, APP_ENV: "local" },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

async function roleOf(email: string) {
  const shop = new pg.Client(databaseUrl);
  await shop.connect();
  const { rows } = await shop.query("select role from users where email = $1", [email]);
  await shop.end();
  return rows[0]?.role;
}

describe("admin:create", () => {
  it("names the account after its address when no --name is given, digits and all", async () => {
    const result = await adminCreate(
      "--email",
      "owner2@shop.example",
      "--password",
      "Counter-Staff-Phrase-7",
    );
    expect(result.output).toContain("Created the admin account owner2@shop.example.");
    expect(result.code).toBe(0);
    const shop = new pg.Client(databaseUrl);
    await shop.connect();
    const { rows } = await shop.query("select name, role from users where email = $1", [
      "owner2@shop.example",
    ]);
    await shop.end();
    expect(rows).toEqual([{ name: "Owner", role: "admin" }]);
  });

  it("makes a clerk with --role clerk, and promotes that clerk to admin when run again", async () => {
    const email = "desk@shop.example";
    const made = await adminCreate(
      "--email",
      email,
      "--password",
      "Counter-Staff-Phrase-7",
      "--role",
      "clerk",
    );
    expect(made.output).toContain(`Created the clerk account ${email}.`);
    expect(made.code).toBe(0);
    expect(await roleOf(email)).toBe("clerk");

    const promoted = await adminCreate("--email", email);
    expect(promoted.output).toContain(`${email} is now an admin.`);
    expect(await roleOf(email)).toBe("admin");

    const refused = await adminCreate("--email", email, "--role", "owner");
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("[--role admin|clerk]");
    expect(await roleOf(email)).toBe("admin");
  });

  it("refuses a --name that is not a plain name, saying what is allowed", async () => {
    const result = await adminCreate(
      "--email",
      "third@shop.example",
      "--password",
      "Counter-Staff-Phrase-7",
      "--name",
      "Visit http://x.example",
    );
    expect(result.code).toBe(2);
    expect(result.output).toContain(
      "--name may contain letters, spaces, apostrophes, hyphens and dots only.",
    );
  });
});
