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
  social: [
    { name: "Instagram", href: "https://www.instagram.com/" },
    { name: "Facebook", href: "https://www.facebook.com/" },
    { name: "LinkedIn", href: "https://www.linkedin.com/" },
  ],
} as const;

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
