/** Facts about the shop shown across the site. */
export const SHOP = {
  name: "Reel & Repair",
  motto: "Unleash Your Entertainment.",
  street: "1201 W Division St",
  city: "Arlington",
  region: "TX",
  postalCode: "76012",
  phone: "(817) 555-0142",
  email: "hello@reelandrepair.example",
} as const;

/**
 * How customers reach the shop, from configuration (SHOP_PHONE, SHOP_EMAIL, SHOP_HOURS,
 * SHOP_MAP_URL, SHOP_*_URL for social profiles); the root loader hands it to the pages.
 */
export type ShopContact = {
  phone: string;
  email: string;
  hours: string;
  mapUrl: string;
  social: { name: string; href: string }[];
};

/** A `tel:` address for a phone number as people write it: "(817) 555-0142" → "tel:8175550142". */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export const SHOP_ADDRESS = `${SHOP.street}, ${SHOP.city}, ${SHOP.region} ${SHOP.postalCode}`;

/** "<page> | <shop>" titles and a description for every page. */
export function pageMeta(title: string, description: string, extra: Record<string, string>[] = []) {
  return [
    { title: `${title} | ${SHOP.name}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:site_name", content: SHOP.name },
    ...extra,
  ];
}
