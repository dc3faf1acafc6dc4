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
      res.status(413);
      // A browser's form post (files too large together) gets a page a person can read.
      if (req.accepts(["json", "html"]) === "html") {
        res.type("html").send(tooLargePage(limit, req.get("referer"), req.get("host")));
        return;
      }
      res.json({ error: `The request body is larger than ${limit} bytes.` });
      return;
    }
    next();
  };
}

/** The page a form post over the limit gets: what happened, and the way back to the form. */
function tooLargePage(limit: number, referer: string | undefined, host: string | undefined) {
  let back = "/";
  try {
    const url = new URL(referer ?? "");
    if (url.host === host) back = url.pathname + url.search;
  } catch {
    // No usable referrer: home.
  }
  const megabytes = Math.floor(limit / (1024 * 1024));
  const size = megabytes >= 1 ? `${megabytes} MB` : `${Math.floor(limit / 1024)} KB`;
  const href = back.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Too large to send</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>Too large to send</h1><p>What you sent is larger than ${size} together, so nothing was saved. Go back, choose fewer or smaller files, and send the form again.</p><p><a href="${href}">Back to the form</a></p></body></html>`;
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
