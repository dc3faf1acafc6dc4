import { cn } from "#app/lib/cn.ts";
import { formatUsd } from "#app/lib/money.ts";
import type { SearchSuggestion } from "#app/lib/search-suggestion.ts";

/** Suggestions and the "no matches" text open beneath the box, across the header on phones. */
const popoverClass =
  "absolute right-0 z-50 mt-1 w-72 rounded-md border bg-popover text-popover-foreground shadow-lg max-sm:inset-x-3 max-sm:top-full max-sm:w-auto";

/** What the search box says when nothing matches what was typed (inside its status region). */
export function NoMatches() {
  return (
    <p className={cn(popoverClass, "px-4 py-3 text-sm text-muted-foreground")}>No matches found.</p>
  );
}

/** The suggestions' listbox, with See More Results pinned last when there may be more. */
export function SuggestionList({
  listId,
  suggestions,
  seeMore,
  active,
  setActive,
  pick,
}: {
  listId: string;
  suggestions: SearchSuggestion[];
  seeMore: boolean;
  active: number;
  setActive: (index: number) => void;
  pick: (index: number) => void;
}) {
  const more = suggestions.length;
  return (
    <ul
      id={`${listId}-list`}
      role="listbox"
      aria-label="Search suggestions"
      // Keep focus in the input while a suggestion is clicked, so blur does not collapse first.
      onMouseDown={(event) => event.preventDefault()}
      className={cn(popoverClass, "max-h-96 overflow-y-auto p-1")}
    >
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion.regSerialNo}
          id={`${listId}-option-${index}`}
          role="option"
          aria-selected={active === index}
          onMouseEnter={() => setActive(index)}
          onClick={() => pick(index)}
          className={cn(
            "cursor-pointer rounded-sm px-3 py-2 text-sm",
            active === index && "bg-accent text-accent-foreground",
          )}
        >
          <SuggestionText suggestion={suggestion} />
        </li>
      ))}
      {seeMore ? (
        <li
          id={`${listId}-option-${more}`}
          role="option"
          aria-selected={active === more}
          onMouseEnter={() => setActive(more)}
          onClick={() => pick(more)}
          // Pinned to the bottom of the scrolling list, so it is never cut off.
          className={cn(
            "sticky -bottom-1 cursor-pointer rounded-sm border-t px-3 py-2 text-sm font-semibold text-primary",
            active === more ? "bg-accent" : "bg-popover",
          )}
        >
          See More Results
        </li>
      ) : null}
    </ul>
  );
}

/** A suggestion as the list shows it: its title, disc and price, and whether it is sold out. */
function SuggestionText({ suggestion }: { suggestion: SearchSuggestion }) {
  return (
    <>
      <span className="block">{suggestion.title}</span>
      {/* Disc and price tell two editions of one film apart. */}
      <span className="block text-xs text-muted-foreground">
        {suggestion.disc} · {formatUsd(suggestion.priceCents)}
        {suggestion.inStock ? null : (
          <>
            {" · "}
            <span className="font-medium text-destructive">
              Out of stock: email me when it&apos;s back
            </span>
          </>
        )}
      </span>
    </>
  );
}
