import { isIP } from "node:net";
import type { NextFunction, Request, Response } from "express";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type BodyLimits = { default: number; byPathPrefix: Record<string, number> };

/**
 * Forms, JSON endpoints and the auth API are small; webhooks carry whole events; back-office
 * forms carry a poster (10 MB) or a catalogue CSV.
 */
export const BODY_LIMITS: BodyLimits = {
  default: 64 * 1024,
  byPathPrefix: { "/api/webhooks/": 1024 * 1024, "/admin/": 40 * 1024 * 1024 },
};

function limitFor(path: string, limits: BodyLimits): number {
  for (const [prefix, bytes] of Object.entries(limits.byPathPrefix)) {
    if (path.startsWith(prefix)) return bytes;
  }
  return limits.default;
}

/**
 * Refuses request bodies over the route's limit before reading them: 413 when the declared
 * length is too large. A body without a declared length (chunked) is refused with 411, so the
 * length Node's parser enforces is always one we accepted; browsers always declare it.
 */
export function limitBodies(limits: BodyLimits = BODY_LIMITS) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = req.get("content-length");
    const chunked = req.get("transfer-encoding") !== undefined;
    if (!BODY_METHODS.has(req.method) && declared === undefined && !chunked) return next();
    if (declared === undefined) {
      if (!chunked) return next();
      res.set("Connection", "close");
      res.status(411).json({ error: "Send the body with a Content-Length." });
      return;
    }
    const limit = limitFor(req.path, limits);
    if (Number(declared) > limit) {
      // The unread body would otherwise be parsed as the next request on this connection.
      res.set("Connection", "close");
      res.status(413).json({ error: `The request body is larger than ${limit} bytes.` });
      return;
    }
    next();
  };
}

// A percent-encoded control character (NUL among them): never part of a real address.
const ENCODED_CONTROL = /%(0[0-8bcef]|1[0-9a-f]|7f)/i;

/** Addresses carrying control characters are answered 400 before any page or the database. */
export function refuseControlCharacters(req: Request, res: Response, next: NextFunction) {
  if (ENCODED_CONTROL.test(req.url)) {
    res.status(400).json({ error: "The address contains characters that are not allowed." });
    return;
  }
  next();
}

/**
 * The client's address for rate limits: Express's answer under the configured TRUST_PROXY,
 * or the connection's own address when a forwarded value is not an IP address (so unparsable
 * headers cannot pool clients into one bucket or pick a bucket of their own).
 */
export function clientAddress(req: Request): string {
  const ip = req.ip ?? "";
  if (isIP(ip)) return ip;
  return req.socket.remoteAddress ?? "";
}
