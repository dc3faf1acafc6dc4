import { AsyncLocalStorage } from "node:async_hooks";
import { format } from "node:util";
import pino from "pino";

/** The request being handled, for every log line written while handling it. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * One JSON object per line. Every line written while a request is handled carries its
 * `requestId` (also sent back as `X-Request-Id`). Secrets never reach a line on purpose; the
 * redaction below is the second line of defence for objects logged whole.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL || "info",
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: () => {
    const context = requestContext.getStore();
    return context ? { requestId: context.requestId } : {};
  },
  redact: {
    paths: [
      "password",
      "newPassword",
      "currentPassword",
      "token",
      "secret",
      "*.password",
      "*.newPassword",
      "*.currentPassword",
      "*.token",
      "*.secret",
      "*.headers.authorization",
      "*.headers.cookie",
      '*.headers["set-cookie"]',
      "headers.authorization",
      "headers.cookie",
      'headers["set-cookie"]',
    ],
    censor: "[redacted]",
  },
});

/**
 * Sends what the app and its libraries write with console.* through the logger, so those lines
 * are JSON too and carry the request id.
 */
export function routeConsoleToLogger() {
  const write =
    (level: "info" | "warn" | "error") =>
    (...args: unknown[]) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const message = format(...args.filter((arg) => arg !== error));
      if (error) logger[level]({ err: error }, message || error.message);
      else logger[level](message);
    };
  console.log = write("info");
  console.info = write("info");
  console.warn = write("warn");
  console.error = write("error");
}
