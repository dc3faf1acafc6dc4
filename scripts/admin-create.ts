// npm run admin:create -- --email <e> --password <p> [--name "<full name>"] [--role clerk]
// Creates a staff account, or gives an existing account that role: an admin unless --role says
// clerk (the counter and the repair desk, decision 023). Works whether or not the shop is running
// (same DATA_DIR or DATABASE_URL).
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "#app/db/client.server.ts";
import { runMigrations } from "#app/db/migrate.server.ts";
import { users } from "#app/db/schema.ts";
import { weakPasswordReason } from "#app/domain/accounts/common-passwords.ts";
import {
  getAuth,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "#app/domain/accounts/auth.server.ts";
import { authBodyProblem } from "#app/domain/accounts/auth-input.ts";
import { nameFromEmail } from "#app/lib/person-name.ts";
import { connectForCli } from "#server/connect.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
    role: { type: "string", default: "admin" },
  },
});
const USAGE =
  "Usage: npm run admin:create -- --email <email> --password <password> [--name <name>] [--role admin|clerk]";
const role = values.role === "clerk" || values.role === "admin" ? values.role : undefined;
const email = values.email?.trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || !role) {
  console.error(USAGE);
  process.exit(2);
}

const name = values.name?.trim() || nameFromEmail(email);
const nameProblem = authBodyProblem({ name });
if (nameProblem) {
  console.error(`--${nameProblem[0]!.toLowerCase()}${nameProblem.slice(1)}`);
  process.exit(2);
}

function article(word: string) {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

const connection = await connectForCli();
process.env.DATABASE_URL = connection.url;
let exitCode = 0;
try {
  const db = getDb();
  await runMigrations(db);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) {
    await db.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, existing.id));
    console.log(
      `${email} is now ${article(role)} ${role}.${values.password ? " (The password was left as it is.)" : ""}`,
    );
  } else {
    const password = values.password ?? "";
    const problem =
      password.length < MIN_PASSWORD_LENGTH
        ? `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`
        : password.length > MAX_PASSWORD_LENGTH
          ? `The password must be at most ${MAX_PASSWORD_LENGTH} characters.`
          : weakPasswordReason(password, { email });
    if (problem) {
      console.error(problem);
      exitCode = 2;
    } else {
      const created = await getAuth().api.createUser({
        body: { email, password, name },
      });
      // Made by the shop's operator: no confirmation e-mail needed. The role is set here, as for
      // an existing account: Better Auth's admin plugin knows only its own roles, not a clerk.
      await db
        .update(users)
        .set({ emailVerified: true, role })
        .where(eq(users.id, created.user.id));
      console.log(`Created the ${role} account ${email}.`);
    }
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await closeDb();
  await connection.stop();
}
process.exit(exitCode);
