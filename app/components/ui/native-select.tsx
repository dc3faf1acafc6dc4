import type { ComponentProps, ReactNode } from "react";
import { ChevronDown } from "#app/components/ui/icons.tsx";

import { cn } from "#app/lib/cn.ts";

/** A choice: its value, shown as it is, or a value with the words shown for it. */
export type SelectOption = string | { value: string; label: ReactNode };

type Props = ComponentProps<"select"> & {
  /** The choices, after `placeholder`; `children` comes after them. */
  options?: readonly SelectOption[];
  /** A first choice with an empty value ("Choose a state", "All"). */
  placeholder?: ReactNode;
};

/** A styled plain `<select>`: works without JavaScript (e.g. filters in GET forms). */
export function NativeSelect({ className, options, placeholder, children, ...props }: Props) {
  return (
    <div className="relative has-[select:disabled]:opacity-50">
      <select className={cn("select", className)} {...props}>
        {placeholder === undefined ? null : <option value="">{placeholder}</option>}
        {options?.map((option) =>
          typeof option === "string" ? (
            <option key={option} value={option}>
              {option}
            </option>
          ) : (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ),
        )}
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
    </div>
  );
}
