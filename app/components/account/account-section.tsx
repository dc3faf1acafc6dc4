import { useEffect } from "react";
import { Link } from "react-router";
import { toast } from "#app/components/toasts.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { ArrowLeft } from "#app/components/ui/icons.tsx";
import { cn } from "#app/lib/cn.ts";

/** One section of My Account, with the way back to its menu. */
export function AccountSection({
  wide = false,
  children,
}: {
  /** The order history is as wide as the menu; the forms are narrower. */
  wide?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className={cn("mx-auto px-4 py-10 sm:px-6", wide ? "max-w-4xl" : "max-w-xl")}>
      <Link to="/account" className={buttonVariants({ variant: "outline", size: "sm" })}>
        <ArrowLeft aria-hidden="true" />
        Back
      </Link>
      {children}
    </div>
  );
}

/** The heading of a section of My Account. */
export function SectionHeading({ children }: { children: React.ReactNode }) {
  return <h1 className="mt-4 text-2xl font-bold">{children}</h1>;
}

const SAVED: Record<string, string> = {
  personalInfo: "Your personal information is saved.",
  password: "Your password is changed. Other devices have been signed out.",
  security: "Your two-factor settings are saved.",
  alerts: "Your alert is cancelled: we will not e-mail you about that title.",
};

/** The toast that says what a save did (`?saved=…` after the redirect), once per new page data. */
export function useSavedToast(loaderData: unknown) {
  useEffect(() => {
    const saved = new URLSearchParams(window.location.search).get("saved");
    if (saved && SAVED[saved]) toast.success(SAVED[saved], { id: "account" });
  }, [loaderData]);
}
