// The title page's signup, where list rows, the search box and the details dialog send shoppers.
// A module of its own: the search box is on every page's first load, the alert labels are not.
export const BACK_IN_STOCK_ANCHOR = "back-in-stock";
