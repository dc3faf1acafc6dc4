import { Link } from "react-router";
import { buttonVariants } from "#app/components/ui/button.tsx";

/** On a receipt's page, on screen only: a return of its items, and the returns made already. */
export function ReturnLinks({
  number,
  returnable,
  returns,
}: {
  number: string;
  returnable: boolean;
  returns: string[];
}) {
  if (!returnable && returns.length === 0) return null;
  return (
    <nav aria-label="Returns" className="flex flex-wrap items-center gap-2 print:hidden">
      {returnable ? (
        <Link to={`/counter/sales/${number}/return`} className={buttonVariants()}>
          Return items
        </Link>
      ) : null}
      {returns.map((label) => (
        <Link
          key={label}
          to={`/counter/returns/${label}`}
          className={buttonVariants({ variant: "link" })}
        >
          Return {label}
        </Link>
      ))}
    </nav>
  );
}
