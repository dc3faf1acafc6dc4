import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "#tests/support/property.ts";
import { checkBarcode, hasValidCheckDigit } from "./barcode.ts";

describe("barcodes", () => {
  it("accepts real codes of every length, as printed", () => {
    // A UPC-A of a DVD, an EAN-13 of a book, an EAN-8, a GTIN-14 of a carton.
    for (const code of ["883929301539", "9780306406157", "96385074", "10012345678902"]) {
      expect(checkBarcode(code)).toEqual({ ok: true, barcode: code });
    }
    expect(checkBarcode(" 0 12345 67890 5 ")).toEqual({ ok: true, barcode: "012345678905" });
    expect(checkBarcode("978-0-306-40615-7")).toEqual({ ok: true, barcode: "9780306406157" });
  });

  it("refuses letters, other lengths and a wrong check digit, saying which", () => {
    expect(checkBarcode("ABC123")).toEqual({ ok: false, message: "A barcode is digits only." });
    expect(checkBarcode("")).toEqual({ ok: false, message: "A barcode is digits only." });
    expect(checkBarcode("12345")).toEqual({
      ok: false,
      message: "A barcode has 8, 12, 13 or 14 digits.",
    });
    expect(checkBarcode("883929301538")).toEqual({
      ok: false,
      message: "This barcode's last digit does not match: check it or scan again.",
    });
  });

  it("catches every single misread digit", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("883929301539", "9780306406157", "96385074", "10012345678902"),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (code, at, shift) => {
          const i = at % code.length;
          const misread =
            code.slice(0, i) + String((Number(code[i]) + shift) % 10) + code.slice(i + 1);
          expect(hasValidCheckDigit(misread)).toBe(false);
        },
      ),
      propertyRuns(200),
    );
  });
});
