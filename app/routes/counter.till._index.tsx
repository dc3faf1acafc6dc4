import { Form, Link, redirect } from "react-router";
import type { CounterAnswer } from "#app/components/counter/counter-answer.ts";
import { ZReportCard } from "#app/components/counter/z-report-card.tsx";
import { FormField, FormMessage } from "#app/components/form-field.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { getDb } from "#app/db/client.server.ts";
import { requireActingStaff, requireStaff } from "#app/domain/accounts/session.server.ts";
import { counterConfig } from "#app/domain/counter/counter-config.server.ts";
import { closeTillSchema, readCounterForm } from "#app/domain/counter/counter-input.ts";
import { closedTills, closeTillSession, openTill } from "#app/domain/counter/till.server.ts";
import { zReport } from "#app/domain/counter/z-report.server.ts";
import { privatePageHeaders } from "#app/lib/http.server.ts";
import { formatUsd } from "#app/lib/money.ts";
import { reply } from "#app/lib/reply.server.ts";
import { readForm } from "#app/lib/request.server.ts";
import { formatShopDateTime } from "#app/lib/shop-time.ts";
import { pageMeta } from "#app/lib/site.ts";
import type { Route } from "./+types/counter.till._index";
import { errorsOf } from "#app/lib/answer.ts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Till", "The till's takings so far, closing it, and the Z reports of closed tills."),
  { name: "robots", content: "noindex" },
];

export const headers: Route.HeadersFunction = () => privatePageHeaders();

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "counter");
  const db = getDb();
  const { timeZone } = counterConfig();
  const [till, closed] = await Promise.all([openTill(db), closedTills(db)]);
  return {
    open: till
      ? {
          report: await zReport(db, till, new Date()),
          opened: formatShopDateTime(till.openedAt, timeZone),
        }
      : null,
    closed: closed.map((row) => ({
      id: row.id,
      closed: formatShopDateTime(row.closedAt, timeZone),
      totalCents: row.report.totalCents,
      overShortCents: row.report.overShortCents ?? 0,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const staff = await requireActingStaff(request, "counter");
  const form = await readForm(request);
  const read = readCounterForm(closeTillSchema, form);
  if (!read.ok)
    return reply.refused("invalid", read.message, { errors: read.errors, values: form });
  const db = getDb();
  const till = await openTill(db);
  if (!till) return reply.refused("conflict", "The till is closed already.");
  const closed = await closeTillSession(db, till.id, read.values.counted, staff);
  if (!closed.ok) return reply.result(closed, { values: form });
  throw redirect(`/counter/till/${till.id}`);
}

export default function Till({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData as CounterAnswer | undefined;
  const errors = errorsOf(answer);
  const { open, closed } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold">Till</h1>
        <Link to="/counter" className="text-primary underline">
          Back to the counter
        </Link>
      </div>
      {open ? (
        <SectionCard title="The till so far" contentClassName="flex flex-col gap-4">
          <ZReportCard report={open.report} opened={open.opened} closed={null} />
          <Form method="post" className="flex max-w-md flex-col gap-3">
            {answer && !answer.ok && !answer.errors ? (
              <FormMessage tone="error">{answer.message}</FormMessage>
            ) : null}
            <FormField
              label="Counted cash ($)"
              name="counted"
              inputMode="decimal"
              required
              hint={`Count the drawer, float included. Expected: ${formatUsd(open.report.expectedCashCents)}.`}
              defaultValue={answer?.values?.counted ?? ""}
              error={errors.counted}
            />
            <Button type="submit">Close the till</Button>
          </Form>
        </SectionCard>
      ) : (
        <p>The till is closed.</p>
      )}
      <SectionCard title="Z reports" contentClassName="flex flex-col gap-3">
        {closed.length === 0 ? (
          <p className="text-sm text-muted-foreground">No till has been closed yet.</p>
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {closed.map((till) => (
              <li key={till.id}>
                <Link to={`/counter/till/${till.id}`} className="text-primary underline">
                  Till {till.id}, closed {till.closed}
                </Link>{" "}
                · {formatUsd(till.totalCents)}
                {till.overShortCents !== 0
                  ? ` · ${till.overShortCents < 0 ? "short" : "over"} ${formatUsd(Math.abs(till.overShortCents))}`
                  : ""}
              </li>
            ))}
          </ul>
        )}
        <a href="/counter/till/export.csv" className="text-primary underline" download>
          Export Z reports (CSV)
        </a>
      </SectionCard>
    </div>
  );
}
