import { Link } from "react-router";
import { Button, buttonVariants } from "./ui/button.tsx";

/** A printable page's buttons, on screen only: Print, and the way back. */
export function PrintBar({ back }: { back: { to: string; label: string } }) {
  return (
    <div className="mb-4 flex flex-wrap gap-2 print:hidden">
      <Button type="button" onClick={() => window.print()}>
        Print
      </Button>
      <Link to={back.to} className={buttonVariants({ variant: "outline" })}>
        {back.label}
      </Link>
    </div>
  );
}
