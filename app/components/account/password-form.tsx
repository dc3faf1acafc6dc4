import { Form } from "react-router";
import { FormField, NewPasswordFields } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { SectionHeading } from "./account-section.tsx";

/** Change Password: the current one, then the new one twice. */
export function PasswordForm({
  errors,
  busy,
}: {
  errors: Record<string, string | undefined>;
  busy: boolean;
}) {
  return (
    <>
      <SectionHeading>Change Password</SectionHeading>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="intent" value="password" />
        <FormField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
        />
        <NewPasswordFields
          errors={errors}
          label="New password"
          confirmLabel="Confirm new password"
        />
        <Button type="submit" disabled={busy}>
          Change Password
        </Button>
      </Form>
    </>
  );
}
