import { describe, expect, it } from "vitest";
import { US_STATE_CODES } from "./us-states.ts";
import { stateOfZip } from "./zip-states.ts";

/** A real address's ZIP code in each state, territory and military "state". */
// prettier-ignore
const KNOWN: Record<(typeof US_STATE_CODES)[number], string[]> = {
  AL: ["35203", "36104"], AK: ["99501", "99801"], AZ: ["85004", "86001"], AR: ["72201"],
  CA: ["90210", "94103", "96150"], CO: ["80202"], CT: ["06103"], DE: ["19901", "19801"],
  FL: ["33101", "32801", "34102"], GA: ["30303", "39901"], HI: ["96813"], ID: ["83702"],
  IL: ["60601", "62701"], IN: ["46204"], IA: ["50309"], KS: ["66101", "67202"],
  KY: ["40202"], LA: ["70112"], ME: ["04101"], MD: ["21201", "20601"], MA: ["02108", "05501", "01101"],
  MI: ["48226"], MN: ["55401"], MS: ["39201"], MO: ["63101", "64105"], MT: ["59601"],
  NE: ["68102"], NV: ["89101"], NH: ["03301"], NJ: ["07102", "08608"], NM: ["87501", "88001"],
  NY: ["10001", "12207", "00501"], NC: ["27601"], ND: ["58501"], OH: ["43215"],
  OK: ["73102", "74103"], OR: ["97201"], PA: ["15222", "19103"], RI: ["02903"],
  SC: ["29201"], SD: ["57501"], TN: ["37203"], TX: ["76012", "77002", "73301", "79901", "88510"],
  UT: ["84111"], VT: ["05602"], VA: ["23219", "20166"], WA: ["98101"], WV: ["25301"],
  WI: ["53703"], WY: ["82001"], DC: ["20001", "20500", "56901"], AS: ["96799"],
  GU: ["96910", "96932"], MP: ["96950"], PR: ["00901", "00725"], VI: ["00802"],
  AA: ["34001"], AE: ["09001"], AP: ["96201"],
};

describe("the state of a ZIP code", () => {
  it("knows a real address in every state, territory and military state", () => {
    for (const state of US_STATE_CODES) {
      for (const zip of KNOWN[state]) expect(`${zip} ${stateOfZip(zip)}`).toBe(`${zip} ${state}`);
    }
  });

  it("reads ZIP+4 the same, and has no state for unassigned prefixes or malformed codes", () => {
    expect(stateOfZip("76012-3456")).toBe("TX");
    expect(stateOfZip("760123456")).toBe("TX");
    for (const zip of ["00000", "00100", "21300", "99", "abcde", ""]) {
      expect(stateOfZip(zip)).toBeNull();
    }
  });
});
