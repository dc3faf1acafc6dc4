import { Link } from "react-router";
import { ArrowLeft } from "#app/components/ui/icons.tsx";

/** The link above a page's heading back to the list or page it was opened from. */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {children}
    </Link>
  );
}
