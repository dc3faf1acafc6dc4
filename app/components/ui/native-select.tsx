import type { ComponentProps } from "react";
import { ChevronDown } from "#app/components/ui/icons.tsx";

import { cn } from "#app/lib/cn.ts";

/** A styled plain `<select>`: works without JavaScript (e.g. filters in GET forms). */
export function NativeSelect({ className, ...props }: ComponentProps<"select">) {
  return (
    <div className="relative has-[select:disabled]:opacity-50">
      <select className={cn("select", className)} {...props} />
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
