import type { ComponentProps } from "react";

import { cn } from "#app/lib/cn.ts";

export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("skeleton", className)} {...props} />;
}
