// `npm run build`: the production build, stamped so that `npm start` does not build it again.
import { build, whileHoldingBuildLock } from "#server/build-stamp.ts";

process.exit(await whileHoldingBuildLock(build));
