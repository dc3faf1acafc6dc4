import { Search } from "#app/components/ui/icons.tsx";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Form, useNavigate } from "react-router";
import { BACK_IN_STOCK_ANCHOR } from "#app/domain/alerts/anchor.ts";
import { cn } from "#app/lib/cn.ts";
import { SUGGESTIONS_LIMIT, type SearchSuggestion } from "#app/lib/search-suggestion.ts";
import { NoMatches, SuggestionList } from "./search-suggestions.tsx";

type Results = { query: string; suggestions: SearchSuggestion[] };

const DEBOUNCE_MS = 200;

/**
 * The navbar search: compact until focused, suggestions as the shopper types (debounced, stale
 * requests cancelled), a full results page behind 'See More Results'. Without JavaScript it is
 * a plain GET form to /search.
 */
export function SearchBox() {
  const listId = useId();
  const box = useSearchBox();
  const { expanded, query, active, collapse } = box;

  return (
    <Form
      ref={box.rootRef}
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
        <SearchField listId={listId} box={box} />
      </div>
      {/* Always in the page, so screen readers announce the text when it appears. */}
      <div role="status">{box.noMatches ? <NoMatches /> : null}</div>
      {box.showList ? (
        <SuggestionList
          listId={listId}
          suggestions={box.suggestions}
          seeMore={box.seeMore}
          active={active}
          setActive={box.setActive}
          pick={box.pick}
        />
      ) : null}
    </Form>
  );
}

type SearchBoxState = ReturnType<typeof useSearchBox>;

/**
 * The box's state: open or compact, the text typed, the suggestions for it and the one
 * highlighted; collapsing it, picking a suggestion and the keys that move between them.
 */
function useSearchBox() {
  const navigate = useNavigate();
  const rootRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [text, setText] = useState("");
  const query = text.trim();
  const { results, active, setActive, forget } = useSuggestions(query);

  const collapse = useCallback(() => {
    setExpanded(false);
    setText("");
    forget();
  }, [forget]);

  useCollapseOnPressOutside(rootRef, expanded, collapse);

  const shown = shownSuggestions(results, query, expanded);
  const { suggestions, optionCount } = shown;
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

  return {
    ...shown,
    rootRef,
    inputRef,
    expanded,
    setExpanded,
    text,
    setText,
    query,
    active,
    setActive,
    collapse,
    pick,
    onKeyDown,
  };
}

/**
 * The suggestions for the typed query, asked for once typing pauses (an older request is
 * cancelled), and the one highlighted: none again whenever an answer arrives.
 */
function useSuggestions(query: string) {
  const [results, setResults] = useState<Results | null>(null);
  const [active, setActive] = useState(-1);

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

  /** Drops the suggestions and the highlight, as the box collapses. */
  const forget = useCallback(() => {
    setResults(null);
    setActive(-1);
  }, []);

  return { results, active, setActive, forget };
}

/** Collapses the open box when a press lands outside it. */
function useCollapseOnPressOutside(
  rootRef: React.RefObject<HTMLFormElement | null>,
  expanded: boolean,
  collapse: () => void,
) {
  useEffect(() => {
    if (!expanded) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) collapse();
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [rootRef, expanded, collapse]);
}

/** What the box shows of the answer it has: the options to pick from, or "no matches". */
function shownSuggestions(results: Results | null, query: string, expanded: boolean) {
  const suggestions = results && query ? results.suggestions : [];
  const answered = expanded && query.length > 0 && results !== null;
  // A listbox must hold options: "no matches" is said by the box's status region instead.
  const showList = answered && suggestions.length > 0;
  const noMatches = answered && suggestions.length === 0;
  const seeMore = suggestions.length >= SUGGESTIONS_LIMIT;
  const optionCount = suggestions.length + (seeMore ? 1 : 0);
  return { suggestions, showList, noMatches, seeMore, optionCount };
}

/** The combobox itself: compact until opened, pointing at the highlighted suggestion. */
function SearchField({ listId, box }: { listId: string; box: SearchBoxState }) {
  const { expanded, active } = box;
  return (
    <input
      ref={box.inputRef}
      id={`${listId}-input`}
      name="query"
      type="search"
      autoComplete="off"
      role="combobox"
      aria-expanded={box.showList}
      aria-controls={`${listId}-list`}
      aria-autocomplete="list"
      aria-activedescendant={active >= 0 ? `${listId}-option-${active}` : undefined}
      placeholder={expanded ? "Search films..." : "Search"}
      value={box.text}
      onChange={(event) => {
        box.setText(event.target.value);
        box.setExpanded(true);
      }}
      onFocus={() => box.setExpanded(true)}
      onKeyDown={box.onKeyDown}
      className={cn(
        "h-9 rounded-md border border-white/25 bg-white/10 pr-2 pl-8 text-sm text-white transition-[width] duration-200",
        // Closed on phones: an icon-sized field (its label is read out; no cut-off text).
        expanded
          ? "w-full placeholder:text-slate-300 sm:w-72"
          : "w-9 placeholder:text-transparent sm:w-32 sm:placeholder:text-slate-300",
      )}
    />
  );
}
