import { describe, expect, it } from "vitest";
import { greetingName, nameFromEmail, PLAIN_NAME } from "./person-name.ts";

describe("person names", () => {
  it("accepts names from many languages", () => {
    for (const name of ["Ada", "O'Brien", "Mary-Kate", "José María", "Zoë", "李", "St. John"]) {
      expect(PLAIN_NAME.test(name)).toBe(true);
    }
  });

  it("refuses links, markup and sentences with punctuation", () => {
    for (const name of ["http://evil.example", "<b>x</b>", "Win $500 now!", "a@b.c", "1234"]) {
      expect(PLAIN_NAME.test(name)).toBe(false);
    }
  });

  it("greets with a short plain first name only", () => {
    expect(greetingName("Ada Lovelace")).toBe("Ada");
    expect(greetingName("Click https://evil.example to claim")).toBe("Click");
    expect(greetingName("https://evil.example/claim")).toBe("there");
    expect(greetingName("www.evil.example")).toBe("there");
    expect(greetingName("A".repeat(40))).toBe("there");
    expect(greetingName("")).toBe("there");
  });

  it("makes a plain name from an address's letters", () => {
    expect(nameFromEmail("owner2@shop.example")).toBe("Owner");
    expect(nameFromEmail("mary.jones+shop@x.example")).toBe("Mary Jones Shop");
    expect(nameFromEmail("2024@x.example")).toBe("Shop Admin");
    for (const email of ["owner2@shop.example", "mary.jones+shop@x.example", "_@x.example"]) {
      expect(
        nameFromEmail(email)
          .split(" ")
          .every((word) => PLAIN_NAME.test(word)),
      ).toBe(true);
    }
  });
});
