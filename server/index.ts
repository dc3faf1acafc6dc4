// React and its dependencies choose their development or production build when first loaded,
// from NODE_ENV: settle it before anything else is imported.
process.env.NODE_ENV ??= "production";
await import("./main.ts");
export {};
