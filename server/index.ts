// React and its dependencies choose their development or production build from NODE_ENV when
// first loaded: settle it from APP_ENV before anything else is imported. Only `npm run dev`
// uses React's development build.
process.env.NODE_ENV = process.env.APP_ENV === "development" ? "development" : "production";
await import("./main.ts");
export {};
