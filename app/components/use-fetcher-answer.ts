import { useEffect, useRef } from "react";

/**
 * Calls `onAnswer` once for each new answer a fetcher brings back (a toast, a dialog), however
 * often the component renders afterwards.
 */
export function useFetcherAnswer<T>(
  fetcher: { state: string; data: T | undefined },
  onAnswer: (answer: T) => void,
) {
  const handled = useRef<T | undefined>(undefined);
  const callback = useRef(onAnswer);
  callback.current = onAnswer;
  useEffect(() => {
    if (fetcher.state !== "idle" || fetcher.data === undefined) return;
    if (handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    callback.current(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}
