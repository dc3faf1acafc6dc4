import { publicUrl } from "#app/lib/env.server.ts";

export function loader() {
  const origin = publicUrl();
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
