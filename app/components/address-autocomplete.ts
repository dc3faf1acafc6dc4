import { useEffect, useRef } from "react";

/** What autocomplete fills in: street, city, state code and ZIP of a US address. */
export type PickedAddress = { address: string; city: string; state: string; postalCode: string };

type AddressComponent = { long_name: string; short_name: string; types: string[] };
type Autocomplete = {
  addListener: (event: "place_changed", handler: () => void) => { remove: () => void };
  getPlace: () => { address_components?: AddressComponent[] } | undefined;
};
type MapsWindow = Window & {
  google?: {
    maps?: {
      places?: {
        Autocomplete: new (
          input: HTMLInputElement,
          options: Record<string, unknown>,
        ) => Autocomplete;
      };
    };
  };
};

/** Spec §5: the script is tried three times, waiting longer each time. */
const RETRY_DELAYS_MS = [1000, 2000, 4000];

let loading: Promise<void> | undefined;

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    // The page's Content-Security-Policy lets in scripts that carry its nonce.
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error(`could not load ${src}`));
    };
    document.head.append(script);
  });
}

async function loadWithRetries(src: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await loadScript(src);
      return;
    } catch (error) {
      if (attempt >= RETRY_DELAYS_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}

export function addressFrom(components: AddressComponent[]): PickedAddress {
  const part = (type: string, short = false) => {
    const found = components.find((component) => component.types.includes(type));
    return (short ? found?.short_name : found?.long_name) ?? "";
  };
  return {
    address: [part("street_number"), part("route", true)].filter(Boolean).join(" "),
    city: part("locality") || part("sublocality") || part("postal_town"),
    state: part("administrative_area_level_1", true),
    postalCode: part("postal_code"),
  };
}

/**
 * US address autocomplete on the street field (Google Places), only where a script address is
 * given (GOOGLE_MAPS_API_KEY set). Without it, or if the script never loads, the fields stay
 * plain fields.
 */
export function useAddressAutocomplete(
  scriptSrc: string | null,
  onPick: (address: PickedAddress) => void,
) {
  const input = useRef<HTMLInputElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    if (!scriptSrc || !input.current) return;
    let listener: { remove: () => void } | undefined;
    let cancelled = false;
    loading ??= loadWithRetries(scriptSrc).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    loading
      .then(() => {
        const places = (window as MapsWindow).google?.maps?.places;
        if (cancelled || !places || !input.current) return;
        const autocomplete = new places.Autocomplete(input.current, {
          componentRestrictions: { country: "us" },
          fields: ["address_components"],
          types: ["address"],
        });
        listener = autocomplete.addListener("place_changed", () => {
          const components = autocomplete.getPlace()?.address_components;
          if (components) pick.current(addressFrom(components));
        });
      })
      .catch((error: unknown) => console.warn("Address autocomplete is unavailable", error));
    return () => {
      cancelled = true;
      listener?.remove();
    };
  }, [scriptSrc]);
  return input;
}
