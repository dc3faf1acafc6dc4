import type { NextFunction, Request, Response } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests sent by other sites (cross-site form posts and fetches).
 * Browsers send `Origin` on such requests and `Sec-Fetch-Site` where supported; requests
 * without either (curl, server-to-server webhooks) are left to their own checks.
 */
export function sameOriginOnly(publicUrl: string | undefined) {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || req.path.startsWith("/api/webhooks/")) return next();
    const fetchSite = req.get("sec-fetch-site");
    const origin = req.get("origin");
    let allowed = true;
    if (origin && origin !== "null") {
      let host: string | undefined;
      try {
        host = new URL(origin).host;
      } catch {
        host = undefined;
      }
      allowed = host === req.get("host") || origin === publicOrigin;
    } else if (origin === "null" || fetchSite === "cross-site") {
      allowed = false;
    }
    if (allowed) return next();
    res.status(403).json({ error: "Cross-site requests are not allowed." });
  };
}
