/**
 * What a repair ticket's status link shows once it has stopped working, a set time after the
 * repair was closed (docs/security.md, "Retention"): which repair, and how to reach the shop.
 * Nothing of the device, the customer or the work: the link no longer opens them.
 */
export function RepairLinkEnded({
  label,
  closedOn,
  days,
  shop,
}: {
  label: string;
  closedOn: string;
  days: number;
  shop: { address: string; phone: string; hours: string };
}) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10 sm:px-6">
      <p className="text-sm font-medium text-muted-foreground">Repair {label}</p>
      <h1 className="text-3xl font-bold">This repair link has expired</h1>
      <p>
        Repair {label} was closed on {closedOn}. Its status link works for {days} days after a
        repair is closed.
      </p>
      <p>
        For anything about it, call {shop.phone} or visit us at {shop.address} ({shop.hours}),
        quoting {label}.
      </p>
    </div>
  );
}
