import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/_index.tsx"),
  route("movies", "routes/movies._index.tsx"),
  route("movies/:regSerialNo", "routes/movies.$regSerialNo.tsx"),
  route("adult-movies", "routes/adult-movies._index.tsx"),
  route("adult-movies/:adultSerialNo", "routes/adult-movies.$adultSerialNo.tsx"),
  route("age-check", "routes/age-check.tsx"),
  route("new-arrivals", "routes/new-arrivals.tsx"),
  route("staff-picks", "routes/staff-picks.tsx"),
  route("search", "routes/search.tsx"),
  route("about", "routes/about.tsx"),
  route("other-services", "routes/other-services.tsx"),
  route("cart", "routes/cart.tsx"),
  route("api/search/suggestions", "routes/api.search.suggestions.ts"),
  route("api/cart/prices", "routes/api.cart.prices.ts"),
  route("posters/:kind/:file", "routes/posters.$kind.$file.ts"),
  route("dev/mailbox", "routes/dev.mailbox.tsx"),
  route("dev/mailbox/:id", "routes/dev.mailbox.$id.tsx"),
  route("robots.txt", "routes/[robots.txt].ts"),
  route("sitemap.xml", "routes/[sitemap.xml].ts"),
  route("*", "routes/$.tsx"),
] satisfies RouteConfig;
