/** The most of one product a counter sale may hold: a counter, not a warehouse. */
export const MAX_LINE_QUANTITY = 99;
