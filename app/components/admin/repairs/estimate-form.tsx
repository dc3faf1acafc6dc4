import { useEffect, useRef, useState } from "react";
import { Form } from "react-router";
import { FormField, SelectField, TextareaField } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/components/use-hydrated.ts";
import type { TicketStatus } from "#app/domain/repair-tickets/status.ts";
import {
  ESTIMATE_FORM_ROWS,
  MAX_ESTIMATE_LINES,
  type EstimateRowValues,
} from "#app/domain/repair-tickets/ticket-input.ts";
import { useBusy, type TicketAnswer } from "./ticket-answer.ts";
import { Message, Section } from "./ticket-section.tsx";
import { errorsOf } from "#app/lib/answer.ts";

function EstimateLine({
  row,
  values,
  errors,
}: {
  row: number;
  values: EstimateRowValues | undefined;
  errors: Record<string, string | undefined>;
}) {
  const error = (field: string) => errors[`lines.${row}.${field}`];
  // Each field's name carries its line, for lists of a form's fields that leave out the group.
  const line = <span className="sr-only">Line {row + 1} </span>;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3 sm:grid-cols-[8rem_1fr_5rem_8rem]">
      <legend className="px-1 text-sm font-medium">Line {row + 1}</legend>
      <SelectField
        id={`estimate-line-${row}-kind`}
        label={<>{line}Kind</>}
        name={`lines.${row}.kind`}
        defaultValue={values?.kind ?? (row === 0 ? "labour" : "part")}
        error={error("kind")}
        options={[
          { value: "labour", label: "Labour" },
          { value: "part", label: "Part" },
        ]}
      />
      <FormField
        label={<>{line}Description</>}
        name={`lines.${row}.description`}
        maxLength={120}
        autoComplete="off"
        defaultValue={values?.description}
        error={error("description")}
      />
      <FormField
        label={<>{line}Qty</>}
        name={`lines.${row}.quantity`}
        inputMode="numeric"
        autoComplete="off"
        defaultValue={values?.quantity ?? "1"}
        error={error("quantity")}
      />
      <FormField
        label={<>{line}Unit price ($)</>}
        name={`lines.${row}.unitPrice`}
        inputMode="decimal"
        autoComplete="off"
        defaultValue={values?.unitPrice}
        error={error("unitPrice")}
      />
    </fieldset>
  );
}

/**
 * The estimate's lines: the first five as plain form rows (all a browser without JavaScript
 * needs), and with JavaScript an "Add line" button for more, up to the most an estimate has.
 */
function EstimateLines({ kept }: { kept: TicketAnswer | undefined }) {
  const hydrated = useHydrated();
  const [count, setCount] = useState(kept?.estimateRows?.length ?? ESTIMATE_FORM_ROWS);
  const added = useRef<number | null>(null);
  useEffect(() => {
    if (added.current === null) return;
    document.getElementById(`estimate-line-${added.current}-kind`)?.focus();
    added.current = null;
  }, [count]);
  return (
    <>
      {Array.from({ length: count }, (_, row) => (
        <EstimateLine
          key={row}
          row={row}
          values={kept?.estimateRows?.[row]}
          errors={errorsOf(kept)}
        />
      ))}
      {hydrated ? (
        count < MAX_ESTIMATE_LINES ? (
          <div>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                added.current = count;
                setCount(count + 1);
              }}
            >
              Add line
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            An estimate has at most {MAX_ESTIMATE_LINES} lines.
          </p>
        )
      ) : null}
    </>
  );
}

export function EstimateForm({
  status,
  replaces,
  answer,
}: {
  status: TicketStatus;
  /** A pending estimate is there, which this one replaces. */
  replaces: boolean;
  answer?: TicketAnswer;
}) {
  const busy = useBusy("estimate");
  const mine = answer?.intent === "estimate" ? answer : undefined;
  const kept = mine && !mine.ok ? mine : undefined;
  const errors = errorsOf(kept);
  return (
    <Section id="ticket-estimate" title={replaces ? "Send a new estimate" : "Send an estimate"}>
      <Message answer={answer} intent="estimate" />
      <p className="mb-3 text-sm text-muted-foreground">
        Up to {MAX_ESTIMATE_LINES} lines; rows without a description or price are left out. Sales
        tax is added by the shop. The customer is e-mailed a link to approve or decline
        {replaces ? "; this replaces the estimate they have now" : ""}.
      </p>
      <Form
        key={mine?.ok ? mine.sentId : "estimate"}
        method="post"
        noValidate
        className="flex flex-col gap-4"
      >
        <input type="hidden" name="intent" value="estimate" />
        <input type="hidden" name="from" value={status} />
        <EstimateLines kept={kept} />
        <TextareaField
          label="Note to the customer (optional)"
          name="note"
          rows={2}
          maxLength={1000}
          defaultValue={kept?.values?.note}
          error={errors.note}
        />
        <div>
          <Button type="submit" disabled={busy}>
            Send estimate
          </Button>
        </div>
      </Form>
    </Section>
  );
}
