import type { Route } from "./+types/[robots.txt]";

export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const body = [
    "User-agent: *",
    "Disallow: /adult-movies",
    "Disallow: /age-check",
    "Disallow: /api/",
    "Disallow: /posters/adult/",
    "Disallow: /search",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
