import { Form, useNavigation } from "react-router";
import { SectionCard } from "#app/components/admin/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";

export type PickupShown = {
  ready: string | null;
  code: string | null;
  collected: string | null;
  collectedByName: string | null;
};

/**
 * A pickup order's state at the counter, and for a paid one not yet ready the button that gives
 * it its code and e-mails the customer (clerks and admins).
 */
export function PickupCard({
  status,
  pickup,
  mayMarkReady,
}: {
  status: string;
  pickup: PickupShown;
  mayMarkReady: boolean;
}) {
  const busy = useNavigation().formData?.get("intent") === "ready-for-pickup";
  return (
    <SectionCard title="Pick up at the store" contentClassName="flex flex-col gap-3 text-sm">
      {pickup.collected ? (
        <p>
          Collected {pickup.collected}
          {pickup.collectedByName ? `, handed over by ${pickup.collectedByName}` : ""}.
        </p>
      ) : pickup.ready ? (
        <p>
          Ready for pickup since {pickup.ready} · Pickup code:{" "}
          <span className="font-mono font-semibold">{pickup.code}</span>
        </p>
      ) : status === "paid" ? (
        <p>Paid: get it ready at the counter, then tell the customer.</p>
      ) : (
        <p>Not paid: it cannot be made ready.</p>
      )}
      {status === "paid" && !pickup.ready && mayMarkReady ? (
        <Form method="post">
          <input type="hidden" name="intent" value="ready-for-pickup" />
          <Button type="submit" disabled={busy}>
            Ready for pickup
          </Button>
        </Form>
      ) : null}
    </SectionCard>
  );
}
