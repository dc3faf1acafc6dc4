import type { ReactNode } from "react";

/** The banner on the test payment provider's pages: nothing on them moves real money. */
export function TestModeNote({ children }: { children: ReactNode }) {
  return (
    <p
      role="note"
      className="rounded-md border border-amber-500/60 bg-amber-50 px-3 py-2 text-sm font-semibold text-amber-900"
    >
      {children}
    </p>
  );
}
