import type { ComponentProps } from "react";

import { cn } from "#app/lib/cn.ts";

/** Styled by the `input` rule in app.css. */
export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn("input", className)} {...props} />;
}
