import type { ComponentProps } from "react";

import { cn } from "#app/lib/cn.ts";

export type BadgeVariant = "default" | "secondary" | "destructive" | "outline" | "success";

/** Styled by the `badge` rules in app.css. */
export function Badge({
  className,
  variant,
  ...props
}: ComponentProps<"span"> & { variant?: BadgeVariant | null }) {
  return <span className={cn("badge", `badge-${variant ?? "default"}`, className)} {...props} />;
}
