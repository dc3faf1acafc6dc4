import type { ComponentProps } from "react";
import sprite from "./icons.svg?url";

/**
 * The shop's icons (Lucide's drawings) as one cached sprite file, each icon drawn with `<use>`:
 * a page carries a short reference instead of every icon's paths, and no icon code is shipped to
 * the browser. After adding an icon here, run `node scripts/icon-sprite.ts` to redraw the sprite
 * (a test fails while it is out of date). `<use>` only reads files of the page's own origin, so
 * /assets must be served from the shop's address (docs/deploy.md).
 */
export function Icon({ name, ...props }: ComponentProps<"svg"> & { name: string }) {
  return (
    <svg width="24" height="24" aria-hidden="true" focusable="false" {...props}>
      <use href={`${sprite}#${name}`} />
    </svg>
  );
}

function icon(name: string) {
  return function SpriteIcon(props: ComponentProps<"svg">) {
    return <Icon name={name} {...props} />;
  };
}

export const ArrowDown = icon("arrow-down");
export const ArrowLeft = icon("arrow-left");
export const ArrowUp = icon("arrow-up");
export const ArrowUpDown = icon("arrow-up-down");
export const CalendarClock = icon("calendar-clock");
export const Camera = icon("camera");
export const CircleCheck = icon("circle-check");
export const ChevronDown = icon("chevron-down");
export const ChevronFirst = icon("chevron-first");
export const ChevronLast = icon("chevron-last");
export const ChevronLeft = icon("chevron-left");
export const ChevronRight = icon("chevron-right");
export const Clock = icon("clock");
export const Cpu = icon("cpu");
export const CreditCard = icon("credit-card");
export const FileUp = icon("file-up");
export const Film = icon("film");
export const Gamepad2 = icon("gamepad-2");
export const Inbox = icon("inbox");
export const KeyRound = icon("key-round");
export const LayoutDashboard = icon("layout-dashboard");
export const Library = icon("library");
export const ListPlus = icon("list-plus");
export const Mail = icon("mail");
export const MapPin = icon("map-pin");
export const Menu = icon("menu");
export const Minus = icon("minus");
export const Package = icon("package");
export const Pause = icon("pause");
export const Pencil = icon("pencil");
export const Phone = icon("phone");
export const Play = icon("play");
export const Plus = icon("plus");
export const Popcorn = icon("popcorn");
export const Receipt = icon("receipt");
export const Search = icon("search");
export const ShieldAlert = icon("shield-exclamation-point");
export const ShieldCheck = icon("shield-check");
export const ShoppingCart = icon("shopping-cart");
export const Smartphone = icon("smartphone");
export const Star = icon("star");
export const Trash = icon("trash");
export const TrendingDown = icon("trending-down");
export const TrendingUp = icon("trending-up");
export const Tv = icon("tv");
export const User = icon("user");
export const UserRound = icon("user-round");
export const Users = icon("users");
export const Wrench = icon("wrench");
export const X = icon("x");
