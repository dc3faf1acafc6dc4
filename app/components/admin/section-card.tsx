import { Card, CardContent, CardHeader, CardTitle } from "../ui/card.tsx";

/** A card of a back-office page with its heading (an h2, for the page's outline). */
export function SectionCard({
  title,
  contentClassName,
  children,
}: {
  title: string;
  contentClassName?: string;
  children: React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{title}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
