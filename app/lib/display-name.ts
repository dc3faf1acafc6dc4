/**
 * Spec §3 display name rule: "first last" when either name is there, else the part of the
 * e-mail before the at-sign, else 'Guest'.
 */
export function displayName(
  profile: { firstName?: string | null; lastName?: string | null } | null | undefined,
  email: string | null | undefined,
): string {
  const full = `${profile?.firstName?.trim() ?? ""} ${profile?.lastName?.trim() ?? ""}`.trim();
  if (full) return full;
  const local = email?.split("@")[0]?.trim();
  return local || "Guest";
}
