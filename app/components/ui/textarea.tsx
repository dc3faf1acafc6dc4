import type { ComponentProps } from "react";

import { cn } from "#app/lib/cn.ts";

/** Styled by the `textarea` rule in app.css. */
export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn("textarea", className)} {...props} />;
}
