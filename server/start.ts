// `npm start`: builds the app when the build is missing or older than the sources, then
// serves it. Production deployments build once (`npm run build`) and run server/index.ts.
import { build, isBuilt, whileHoldingBuildLock } from "./build-stamp.ts";

const status = await whileHoldingBuildLock(() => {
  // Another start may have built while this one waited for the lock.
  if (isBuilt()) return 0;
  console.log("Building the shop (first start or changed sources)…");
  return build();
});
if (status !== 0) process.exit(status);

await import("./index.ts");
