import type { ComponentProps } from "react";

import { cn } from "#app/lib/cn.ts";

/** Styled by the `btn` rules in app.css. */
const VARIANTS = {
  default: "btn-primary",
  destructive: "btn-destructive",
  outline: "btn-outline",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  link: "btn-link",
} as const;

const SIZES = { default: "btn-md", sm: "btn-sm", lg: "btn-lg", icon: "btn-icon" } as const;

export type ButtonStyle = {
  variant?: keyof typeof VARIANTS | null;
  size?: keyof typeof SIZES | null;
};

/** A button's classes, also for links that look like buttons. */
export function buttonVariants({
  variant,
  size,
  className,
}: ButtonStyle & { className?: string | undefined } = {}) {
  return cn("btn", VARIANTS[variant ?? "default"], SIZES[size ?? "default"], className);
}

export function Button({
  className,
  variant,
  size,
  ...props
}: ComponentProps<"button"> & ButtonStyle) {
  return <button className={buttonVariants({ variant, size, className })} {...props} />;
}
