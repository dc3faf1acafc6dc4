import { Form } from "react-router";
import { FormField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { SectionHeading } from "./account-section.tsx";

/** Name and date of birth; the date of birth is fixed once given (it decides adult purchases). */
export function PersonalInfoForm({
  user,
  values,
  errors,
  busy,
}: {
  user: { email: string; firstName: string; lastName: string; dateOfBirth: string };
  values: Record<string, string> | undefined;
  errors: Record<string, string | undefined>;
  busy: boolean;
}) {
  return (
    <>
      <SectionHeading>Update Personal Information</SectionHeading>
      <Form method="post" className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="intent" value="profile" />
        <FormField label="Email" name="email" type="email" value={user.email} readOnly />
        <FormField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          defaultValue={values?.firstName ?? user.firstName}
          error={errors.firstName}
        />
        <FormField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          defaultValue={values?.lastName ?? user.lastName}
          error={errors.lastName}
        />
        {user.dateOfBirth ? (
          <FormField
            label="Date of birth"
            name="dateOfBirth"
            type="date"
            readOnly
            defaultValue={user.dateOfBirth}
            error={errors.dateOfBirth}
            hint="It decides adult purchases, so it is fixed once given. To correct it, contact the shop."
          />
        ) : (
          <FormField
            label="Date of birth"
            name="dateOfBirth"
            type="date"
            autoComplete="bday"
            defaultValue={values?.dateOfBirth ?? user.dateOfBirth}
            error={errors.dateOfBirth}
            hint="Needed for adult titles; it cannot be changed here once saved."
          />
        )}
        <Button type="submit" disabled={busy}>
          Save
        </Button>
      </Form>
    </>
  );
}
