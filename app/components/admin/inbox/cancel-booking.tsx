import { useEffect, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "#app/components/ui/dialog.tsx";
import type { InboxAnswer, InboxItemShown } from "./inbox-item.ts";

/** Cancelling a booking asks first: a dialog with JavaScript, a step of the page without. */
export function CancelBooking({
  loaderData,
  answer,
}: {
  loaderData: InboxItemShown;
  answer: InboxAnswer | null;
}) {
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(false);
  const busy = navigation.state === "submitting";
  useEffect(() => {
    if (answer?.intent === "cancel") setConfirming(false);
  }, [answer]);
  const repair = loaderData.repair;
  if (!repair?.cancellable) return null;
  const question = `Cancel ${loaderData.name}'s ${repair.serviceType} appointment on ${repair.slot}? They will get an e-mail with a calendar update that removes it.`;
  const confirmForm = (
    <Form method="post" className="contents">
      <input type="hidden" name="intent" value="cancel-booking" />
      <Button type="submit" variant="destructive" disabled={busy}>
        Cancel booking
      </Button>
    </Form>
  );
  if (repair.confirmCancel) {
    return (
      <div className="mt-4 rounded-xl border border-destructive/40 p-4">
        <p className="font-medium">{question}</p>
        <div className="mt-3 flex flex-wrap gap-2">
          {confirmForm}
          <Link
            to={`/admin/inbox/${loaderData.ref.kind}/${loaderData.ref.id}`}
            className={buttonVariants({ variant: "outline" })}
          >
            Keep the booking
          </Link>
        </div>
      </div>
    );
  }
  return (
    <>
      <Form
        method="get"
        onSubmit={(event) => {
          event.preventDefault();
          setConfirming(true);
        }}
      >
        <input type="hidden" name="confirm" value="cancel" />
        <Button type="submit" variant="outline">
          Cancel booking…
        </Button>
      </Form>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel this booking?</DialogTitle>
            <DialogDescription>{question}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Keep the booking
              </Button>
            </DialogClose>
            {confirmForm}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
