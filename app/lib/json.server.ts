import { data } from "react-router";

/** A JSON error body with a 4xx status, the one shape every endpoint uses for bad input. */
export function jsonError(status: number, error: string, details?: unknown) {
  return data({ error, ...(details === undefined ? {} : { details }) }, { status });
}
