import { Link } from "react-router";
import { buttonVariants } from "./ui/button.tsx";

export function NotFound({ message = "We could not find the page you were looking for." }) {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-sm font-semibold tracking-widest text-primary uppercase">404</p>
      <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-4 text-muted-foreground">{message}</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link to="/" className={buttonVariants()}>
          Go to Home
        </Link>
        <Link to="/movies" className={buttonVariants({ variant: "outline" })}>
          Browse Movies
        </Link>
      </div>
    </section>
  );
}
