import { Search } from "#app/components/ui/icons.tsx";
import { useEffect, useId, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { BACK_IN_STOCK_ANCHOR } from "#app/domain/alerts/anchor.ts";
import { cn } from "#app/lib/cn.ts";
import { formatUsd } from "#app/lib/money.ts";
import { SUGGESTIONS_LIMIT, type SearchSuggestion } from "#app/lib/search-suggestion.ts";

type Results = { query: string; suggestions: SearchSuggestion[] };

const DEBOUNCE_MS = 200;

/** Suggestions and the "no matches" text open beneath the box, across the header on phones. */
const popoverClass =
  "absolute right-0 z-50 mt-1 w-72 rounded-md border bg-popover text-popover-foreground shadow-lg max-sm:inset-x-3 max-sm:top-full max-sm:w-auto";

/**
 * The navbar search: compact until focused, suggestions as the shopper types (debounced, stale
 * requests cancelled), a full results page behind 'See More Results'. Without JavaScript it is
 * a plain GET form to /search.
 */
export function SearchBox() {
  const navigate = useNavigate();
  const listId = useId();
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [text, setText] = useState("");
  const [results, setResults] = useState<Results | null>(null);
  const [active, setActive] = useState(-1);

  const query = text.trim();

  useEffect(() => {
    if (!query) {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(`/api/search/suggestions?query=${encodeURIComponent(query)}`, {
        signal: controller.signal,
      })
        .then((response) => (response.ok ? response.json() : { suggestions: [] }))
        .then((body: { suggestions: SearchSuggestion[] }) => {
          setResults({ query, suggestions: body.suggestions });
          setActive(-1);
        })
        .catch((error: unknown) => {
          if ((error as Error).name === "AbortError") return;
          console.warn("Search suggestions failed", error);
          setResults({ query, suggestions: [] });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  function collapse() {
    setExpanded(false);
    setText("");
    setResults(null);
    setActive(-1);
  }

  useEffect(() => {
    if (!expanded) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) collapse();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [expanded]);

  const suggestions = results && query ? results.suggestions : [];
  const answered = expanded && query.length > 0 && results !== null;
  // A listbox must hold options: "no matches" is said by the status below instead.
  const showList = answered && suggestions.length > 0;
  const noMatches = answered && suggestions.length === 0;
  const seeMore = suggestions.length >= SUGGESTIONS_LIMIT;
  const optionCount = suggestions.length + (seeMore ? 1 : 0);
  const searchUrl = `/search?query=${encodeURIComponent(query)}`;

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Escape") {
      collapse();
      inputRef.current?.blur();
    } else if (event.key === "ArrowDown" && optionCount > 0) {
      event.preventDefault();
      setActive((current) => (current + 1) % optionCount);
    } else if (event.key === "ArrowUp" && optionCount > 0) {
      event.preventDefault();
      setActive((current) => (current <= 0 ? optionCount - 1 : current - 1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      pick(active);
    }
  }

  /** Opens a suggestion's title page, or the full results for the See More entry. */
  function pick(index: number) {
    const picked = suggestions[index];
    collapse();
    // A sold-out title opens at its "Email me when it's back" signup.
    if (picked) {
      const signup = picked.inStock ? "" : `#${BACK_IN_STOCK_ANCHOR}`;
      navigate(`/movies/${picked.regSerialNo}${signup}`, { state: { page: 1 } });
    } else navigate(searchUrl);
  }

  return (
    <Form
      ref={rootRef}
      role="search"
      // Pages with a search of their own have two search landmarks: each is named.
      aria-label="Search films"
      action="/search"
      method="get"
      // On phones the open box covers the header's whole width instead of widening the page.
      className={cn(
        "relative",
        expanded &&
          "max-sm:fixed max-sm:inset-x-0 max-sm:top-0 max-sm:z-50 max-sm:flex max-sm:h-16 max-sm:items-center max-sm:bg-[#1b1f2e] max-sm:px-3",
      )}
      onBlur={(event) => {
        // Keyboard users leave by Tab: that collapses the box like an outside click.
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) collapse();
      }}
      onSubmit={(event) => {
        if (!query) event.preventDefault();
        else setTimeout(collapse, 0);
      }}
    >
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search films
      </label>
      <div className="relative max-sm:flex-1">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-300"
        />
        <input
          ref={inputRef}
          id={`${listId}-input`}
          name="query"
          type="search"
          autoComplete="off"
          role="combobox"
          aria-expanded={showList}
          aria-controls={`${listId}-list`}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${listId}-option-${active}` : undefined}
          placeholder={expanded ? "Search films..." : "Search"}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setExpanded(true);
          }}
          onFocus={() => setExpanded(true)}
          onKeyDown={onKeyDown}
          className={cn(
            "h-9 rounded-md border border-white/25 bg-white/10 pr-2 pl-8 text-sm text-white transition-[width] duration-200",
            // Closed on phones: an icon-sized field (its label is read out; no cut-off text).
            expanded
              ? "w-full placeholder:text-slate-300 sm:w-72"
              : "w-9 placeholder:text-transparent sm:w-32 sm:placeholder:text-slate-300",
          )}
        />
      </div>
      {/* Always in the page, so screen readers announce the text when it appears. */}
      <div role="status">
        {noMatches ? (
          <p className={cn(popoverClass, "px-4 py-3 text-sm text-muted-foreground")}>
            No matches found.
          </p>
        ) : null}
      </div>
      {showList ? (
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
            </li>
          ))}
          {seeMore ? (
            <li
              id={`${listId}-option-${suggestions.length}`}
              role="option"
              aria-selected={active === suggestions.length}
              onMouseEnter={() => setActive(suggestions.length)}
              onClick={() => pick(suggestions.length)}
              // Pinned to the bottom of the scrolling list, so it is never cut off.
              className={cn(
                "sticky -bottom-1 cursor-pointer rounded-sm border-t px-3 py-2 text-sm font-semibold text-primary",
                active === suggestions.length ? "bg-accent" : "bg-popover",
              )}
            >
              See More Results
            </li>
          ) : null}
        </ul>
      ) : null}
    </Form>
  );
}
