import { useId } from "react";
import { cn } from "#app/lib/cn.ts";
import { Input } from "./ui/input.tsx";
import { Label } from "./ui/label.tsx";
import { NativeSelect } from "./ui/native-select.tsx";
import { Textarea } from "./ui/textarea.tsx";

/** What every labelled field has around its control. */
type Wiring = {
  /** Text, or text with a part only screen readers hear (a row's number). */
  label: React.ReactNode;
  error?: string | undefined;
  hint?: string;
  className?: string;
  id?: string;
};

/**
 * A control with its label, hint and error message, tied by ids and aria attributes so that a
 * screen reader announces them with it: the one wiring of inputs, selects and textareas.
 */
function labelled<P extends { id?: string | undefined }>(Control: React.ComponentType<P>) {
  return function LabelledField({
    label,
    error,
    hint,
    className,
    id,
    ...props
  }: Omit<P, "id" | "className"> & Wiring) {
    const generated = useId();
    const controlId = id ?? generated;
    const errorId = `${controlId}-error`;
    const hintId = `${controlId}-hint`;
    const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
    const control = {
      id: controlId,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy || undefined,
      ...props,
    } as unknown as P;
    return (
      <div className={cn("flex flex-col gap-1.5", className)}>
        <Label htmlFor={controlId}>{label}</Label>
        <Control {...control} />
        {hint ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} className="text-sm font-medium text-destructive">
            {error}
          </p>
        ) : null}
      </div>
    );
  };
}

/** A labelled input with its error message next to it, announced to screen readers. */
export const FormField = labelled(Input);

/**
 * A labelled native select with its error message next to it (works without JavaScript). Its
 * choices come as `options` (after an empty `placeholder` choice) or as children.
 */
export const SelectField = labelled(NativeSelect);

/** A labelled textarea with its error message next to it, like FormField. */
export const TextareaField = labelled(Textarea);

/**
 * A message about the whole form, read out when it appears. It is what the form's answer puts
 * focus on when no field is to blame (app/components/navigation-focus.tsx).
 */
export function FormMessage({
  tone,
  children,
}: {
  tone: "error" | "success";
  children: React.ReactNode;
}) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      data-form-message=""
      className={cn(
        "rounded-md border px-3 py-2 text-sm font-medium",
        tone === "error"
          ? "border-destructive/40 bg-destructive/5 text-destructive"
          : "border-success/40 bg-success/5 text-success",
      )}
    >
      {children}
    </p>
  );
}

/** A new password and its confirmation: the same rules wherever a password is chosen. */
export function NewPasswordFields({
  errors,
  label = "Password",
  confirmLabel = "Confirm password",
}: {
  errors: Record<string, string | undefined>;
  label?: string;
  confirmLabel?: string;
}) {
  return (
    <>
      <FormField
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint="At least 8 characters."
        error={errors.password}
      />
      <FormField
        label={confirmLabel}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
      />
    </>
  );
}

/** A checkbox with its label beside it (unticked, the field is not sent at all). */
export function CheckboxField({
  label,
  className,
  id,
  ...props
}: Omit<React.ComponentProps<"input">, "type"> & { label: React.ReactNode }) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <div className={cn("flex items-center gap-2", className)}>
      <input id={fieldId} type="checkbox" className="size-4 accent-primary" {...props} />
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
}
