import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyEmailMessage } from "#app/emails/account-emails.ts";
import { linksIn, listMail, readMail } from "./mailbox.server.ts";
import { createMailTransport } from "./transport.server.ts";

describe("development mailbox", () => {
  it("keeps messages as files, newest first, and logs where to read them but not their links", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mailbox-"));
    const logged: string[] = [];
    const transport = createMailTransport(
      { MAIL_FROM: "shop@example.test", APP_ENV: "local", DATA_DIR: dataDir },
      (line) => logged.push(line),
    );
    expect(transport.kind).toBe("mailbox");
    await transport.send({
      to: "first@example.test",
      subject: "First",
      html: "<p>1</p>",
      text: "one",
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const message = verifyEmailMessage({
      name: "Ada",
      url: "http://localhost:3000/verify?token=abc",
    });
    await transport.send({ to: "ada@example.test", ...message });

    const messages = await listMail(dataDir);
    expect(messages.map((m) => m.to)).toEqual(["ada@example.test", "first@example.test"]);
    expect(await readMail(dataDir, messages[0]!.id)).toMatchObject({ subject: message.subject });
    expect(await readMail(dataDir, "../../etc/passwd")).toBeUndefined();
    expect(logged.at(-1)).toContain(`/dev/mailbox/${messages[0]!.id}`);
    // Links can carry tokens; logs never do.
    expect(logged.join("\n")).not.toContain("token=abc");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is never used in production", () => {
    expect(() =>
      createMailTransport({ MAIL_FROM: "x@y.test", APP_ENV: "production", DATA_DIR: "." }),
    ).toThrow(/SMTP_URL is required/);
  });

  it("finds the links in a message", () => {
    expect(linksIn("Open http://a.test/x?y=1 or https://b.test/.\nhttp://a.test/x?y=1")).toEqual([
      "http://a.test/x?y=1",
      "https://b.test/",
    ]);
  });
});
