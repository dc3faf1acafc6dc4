import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for Google's Maps JavaScript API (which the test machines cannot reach): a script
 * defining `google.maps.places.Autocomplete` with the calls the shop makes. Typing the start
 * of the shop's own address "suggests" it, as Places would. The first request fails, so the
 * shop's retry is exercised too.
 */
const SCRIPT = `
window.google = window.google || {};
window.google.maps = window.google.maps || {};
window.google.maps.places = {
  Autocomplete: class {
    constructor(input, options) {
      this.listeners = [];
      this.place = undefined;
      window.__fakeMapsOptions = options;
      input.addEventListener("input", () => {
        if (!/^1201 w div/i.test(input.value)) return;
        this.place = { address_components: [
          { long_name: "1201", short_name: "1201", types: ["street_number"] },
          { long_name: "West Division Street", short_name: "W Division St", types: ["route"] },
          { long_name: "Arlington", short_name: "Arlington", types: ["locality", "political"] },
          { long_name: "Texas", short_name: "TX", types: ["administrative_area_level_1", "political"] },
          { long_name: "76012", short_name: "76012", types: ["postal_code"] },
        ] };
        this.listeners.forEach((listener) => listener());
      });
    }
    addListener(event, handler) {
      if (event === "place_changed") this.listeners.push(handler);
      return { remove: () => { this.listeners = this.listeners.filter((l) => l !== handler); } };
    }
    getPlace() { return this.place; }
  },
};
`;

export async function startFakeMaps() {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const key = new URL(req.url ?? "/", "http://fake").searchParams.get("key");
    if (requests === 1 || !key) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "text/javascript" }).end(SCRIPT);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    scriptUrl: `http://127.0.0.1:${port}/maps/api/js`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
