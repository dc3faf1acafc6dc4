import { SelectField } from "#app/components/form-field.tsx";
import { RETURN_METHOD_LABELS, RETURN_METHODS } from "#app/domain/returns/status.ts";
import { formatUsd } from "#app/lib/money.ts";
import { SHOP_ADDRESS } from "#app/lib/site.ts";

type Errors = Record<string, string | undefined>;
type Values = Record<string, string | undefined>;

type ReturnLine = {
  field: string;
  title: string;
  quantity: number;
  unitPriceCents: number;
  /** How many can still be returned; none when they are all in a return already. */
  returnable: number;
};

/** The order's lines, each with how many of it go back. */
export function ReturnLinesField({
  lines,
  values,
  errors,
}: {
  lines: ReturnLine[];
  values: Values;
  errors: Errors;
}) {
  return (
    <fieldset
      className="flex flex-col gap-4"
      aria-describedby={errors.lines ? "lines-error" : undefined}
    >
      <legend className="mb-2 text-lg font-semibold">What are you returning?</legend>
      {errors.lines ? (
        <p id="lines-error" className="text-sm font-medium text-destructive">
          {errors.lines}
        </p>
      ) : null}
      <ul className="flex flex-col gap-4">
        {lines.map((line) => (
          <li
            key={line.field}
            className="flex flex-wrap items-end justify-between gap-3 border-b pb-4"
          >
            <div className="min-w-0 flex-1">
              <p className="font-medium">{line.title}</p>
              <p className="text-sm text-muted-foreground">
                {line.quantity} × {formatUsd(line.unitPriceCents)}
              </p>
            </div>
            {line.returnable > 0 ? (
              <SelectField
                label={`How many of ${line.title}`}
                name={line.field}
                defaultValue={values[line.field] ?? "0"}
                error={errors[line.field]}
                className="w-48"
                options={Array.from({ length: line.returnable + 1 }, (_, count) => ({
                  value: String(count),
                  label: count === 0 ? "None" : count,
                }))}
              />
            ) : (
              <p className="text-sm">Already in a return</p>
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Dropped off at the shop or sent by mail, with what the shop pays toward the postage. */
export function ReturnMethodField({
  values,
  errors,
  postageCents,
}: {
  values: Values;
  errors: Errors;
  postageCents: number;
}) {
  return (
    <fieldset
      className="flex flex-col gap-2"
      aria-describedby={errors.method ? "method-error" : undefined}
    >
      <legend className="mb-2 text-lg font-semibold">How will you send it back?</legend>
      {RETURN_METHODS.map((method) => (
        <label key={method} className="flex items-start gap-2">
          <input
            type="radio"
            name="method"
            value={method}
            defaultChecked={values.method === method}
            aria-invalid={errors.method ? true : undefined}
            className="mt-1 size-4 accent-primary"
          />
          <span>
            <span className="font-medium">{RETURN_METHOD_LABELS[method]}</span>
            <span className="block text-sm text-muted-foreground">
              {method === "drop_off"
                ? `At ${SHOP_ADDRESS}, during opening hours.`
                : postageCents > 0
                  ? `To the shop's address; we add ${formatUsd(postageCents)} toward your postage to the refund.`
                  : "To the shop's address, with the postage at your cost."}
            </span>
          </span>
        </label>
      ))}
      {errors.method ? (
        <p id="method-error" className="text-sm font-medium text-destructive">
          {errors.method}
        </p>
      ) : null}
    </fieldset>
  );
}
