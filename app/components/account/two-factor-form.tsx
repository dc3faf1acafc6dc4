import { Form } from "react-router";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { SectionHeading } from "./account-section.tsx";

export type TwoFactorSetup = { qr: string; secretUri: string; backupCodes: string[] };

type Errors = Record<string, string | undefined>;

/** The set-up started: scan the code, keep the backup codes, enter a code to turn it on. */
function VerifyForm({
  setup,
  errors,
  busy,
}: {
  setup: TwoFactorSetup;
  errors: Errors;
  busy: boolean;
}) {
  return (
    <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
      <input type="hidden" name="intent" value="2fa-verify" />
      <input type="hidden" name="setupUri" value={setup.secretUri} />
      <input type="hidden" name="setupBackupCodes" value={setup.backupCodes.join(",")} />
      <p>Scan this code with an authenticator app, then enter the code it shows.</p>
      <div
        role="img"
        aria-label="QR code for your authenticator app"
        className="w-48 rounded-md border bg-white p-2"
        dangerouslySetInnerHTML={{ __html: setup.qr }}
      />
      <details>
        <summary className="cursor-pointer text-sm font-medium">
          Can&apos;t scan? Show the setup key
        </summary>
        <code className="mt-2 block text-xs break-all" data-testid="totp-uri">
          {setup.secretUri}
        </code>
      </details>
      <div>
        <p className="font-medium">Backup codes</p>
        <p className="text-sm text-muted-foreground">
          Keep these somewhere safe. Each works once if you lose your phone.
        </p>
        <ul className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Backup codes">
          {setup.backupCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </div>
      <FormField
        label="Code from your app"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        error={errors.code}
      />
      <Button type="submit" disabled={busy}>
        Turn On
      </Button>
    </Form>
  );
}

/** Two-factor authentication: turn it on (with the password, then a code) or off. */
export function TwoFactorForm({
  enabled,
  setup,
  errors,
  busy,
}: {
  enabled: boolean;
  setup: TwoFactorSetup | undefined;
  errors: Errors;
  busy: boolean;
}) {
  return (
    <>
      <SectionHeading>Two-Factor Authentication</SectionHeading>
      {setup ? (
        <VerifyForm setup={setup} errors={errors} busy={busy} />
      ) : (
        <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
          <input type="hidden" name="intent" value={enabled ? "2fa-disable" : "2fa-enable"} />
          {enabled ? (
            <FormMessage tone="success">Two-factor authentication is on.</FormMessage>
          ) : (
            <p>Two-factor authentication is off. Turn it on to ask for a code at every sign-in.</p>
          )}
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={errors.password}
          />
          <Button type="submit" variant={enabled ? "destructive" : "default"} disabled={busy}>
            {enabled ? "Turn Off Two-Factor" : "Set Up Two-Factor"}
          </Button>
        </Form>
      )}
    </>
  );
}
