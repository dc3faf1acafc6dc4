import { useEffect, useState } from "react";
import type { ShippingValues } from "#app/components/shipping-form.tsx";

const DRAFT_KEY = "checkout-shipping";

/**
 * The checkout's shipping details as typed, and whether the review step is showing. A new
 * answer from the server decides both again; signed out, the typed details wait in this tab
 * (session storage) until the shopper is back from signing in.
 */
export function useCheckoutDetails(
  answer: { values?: ShippingValues; review?: object } | undefined,
  initial: ShippingValues,
) {
  const [values, setValues] = useState<ShippingValues>(answer?.values ?? initial);
  const [reviewing, setReviewing] = useState(Boolean(answer?.review));

  useEffect(() => {
    if (!answer) return;
    if (answer.values) setValues(answer.values);
    setReviewing(Boolean(answer.review));
  }, [answer]);

  useEffect(() => {
    const draft = window.sessionStorage.getItem(DRAFT_KEY);
    if (!draft || answer) return;
    try {
      setValues((current) => ({ ...current, ...(JSON.parse(draft) as Partial<ShippingValues>) }));
    } catch {
      window.sessionStorage.removeItem(DRAFT_KEY);
    }
  }, [answer]);

  const update = (name: keyof ShippingValues, value: string) =>
    setValues((current) => {
      const next = { ...current, [name]: value };
      window.sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
      return next;
    });

  return { values, update, reviewing, setReviewing };
}
