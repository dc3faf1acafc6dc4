// Spec §2: the admin index shows the regular titles table, as /admin/items does.
export { action, default, loader, meta } from "./admin.items._index.tsx";
