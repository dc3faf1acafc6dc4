/** The shop's fixed vocabularies, shared by the database schema, the server and the browser. */
export const DISCS = ["DVD", "Blu-ray", "4K/Blu-ray", "Collections"] as const;
export type Disc = (typeof DISCS)[number];

/** The years a regular title's Release Year may take (spec: the input range). */
export const RELEASE_YEAR_MIN = 1900;
export const RELEASE_YEAR_MAX = 2100;
export const RELEASE_YEAR_FORMAT_MESSAGE = "Year must be in YYYY format";

export const PRODUCT_TYPES = ["regular", "adult"] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const SERVICE_TYPES = [
  "PC & Laptop Repair",
  "Mobile Phone Repair",
  "Game Console Repair",
  "TV & Home Electronics",
  "Custom Builds & Upgrades",
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];
