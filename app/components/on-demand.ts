import { useSyncExternalStore } from "react";

/**
 * A part of the page that the first load does without (a dialog, a menu, the toasts): its module
 * is fetched the first time it is needed, or as soon as the shopper shows the intent to use it
 * (pointer over, focus on or press of what opens it), then kept for every later use.
 */
export type OnDemand<T> = {
  /** Starts fetching (once); resolves with the module. A failed fetch is tried again next time. */
  load: () => Promise<T>;
  /** `load` for event handlers: a failure is reported, not thrown. */
  preload: () => void;
  /** The module if it has arrived. */
  current: () => T | null;
  subscribe: (listener: () => void) => () => void;
};

export function onDemand<T>(fetchModule: () => Promise<T>): OnDemand<T> {
  let loaded: T | null = null;
  let pending: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  const load = () => {
    pending ??= fetchModule().then(
      (module) => {
        loaded = module;
        for (const listener of listeners) listener();
        return module;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return {
    load,
    preload: () => {
      load().catch((error: unknown) => console.error("Could not load a part of the page", error));
    },
    current: () => loaded,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The part's module once it has arrived; null until then, and on the server. */
export function useOnDemand<T>(part: OnDemand<T>): T | null {
  return useSyncExternalStore(part.subscribe, part.current, () => null);
}

/** Event handlers that start fetching a part when the shopper heads for what opens it. */
export function intentToOpen(part: OnDemand<unknown>) {
  return {
    onPointerEnter: part.preload,
    onFocus: part.preload,
    onTouchStart: part.preload,
  };
}
