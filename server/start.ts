// `npm start`: builds the app when the build is missing or older than the sources, then
// serves it. Production deployments build once (`npm run build`) and run server/index.ts.
import { buildIfStale } from "./build-stamp.ts";

const status = await buildIfStale();
if (status !== 0) process.exit(status);

await import("./index.ts");
