import { describe, expect, it, vi } from "vitest";
import { formatReleaseDate } from "./release-date.ts";

describe("formatReleaseDate", () => {
  it("writes a calendar date as Intl's en-US medium date does", () => {
    const intl = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    });
    for (let day = Date.UTC(1999, 0, 1); day <= Date.UTC(2031, 0, 1); day += 86_400_000 * 3) {
      const iso = new Date(day).toISOString().slice(0, 10);
      expect(formatReleaseDate(iso), iso).toBe(intl.format(new Date(`${iso}T12:00:00Z`)));
    }
    expect(formatReleaseDate("2026-12-01")).toBe("Dec 1, 2026");
  });

  it("builds no Intl formatter", async () => {
    const built = vi.spyOn(Intl, "DateTimeFormat");
    try {
      vi.resetModules();
      const fresh = await import("./release-date.ts");
      expect(fresh.formatReleaseDate("2027-02-28")).toBe("Feb 28, 2027");
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
