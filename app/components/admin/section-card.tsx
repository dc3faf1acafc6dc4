import { useId } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card.tsx";

/**
 * A card of a back-office page with its heading (an h2, for the page's outline), a region named
 * by it, so a screen reader's list of landmarks leads to each part of the page.
 */
export function SectionCard({
  title,
  contentClassName,
  children,
}: {
  title: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle>
          <h2 id={id}>{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
