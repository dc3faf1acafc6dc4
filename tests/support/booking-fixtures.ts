import { randomUUID } from "node:crypto";
import type { Database } from "#app/db/client.server.ts";
import { serviceRequests } from "#app/db/schema.ts";

/**
 * A repair booking, Rhea Pair's console for November 24 at 10:00 Chicago time (unconfirmed),
 * with `fields` instead where given; its row.
 */
export async function createBooking(
  db: Database,
  fields: Partial<typeof serviceRequests.$inferInsert> = {},
) {
  const [row] = await db
    .insert(serviceRequests)
    .values({
      name: "Rhea Pair",
      email: `booking-${randomUUID().slice(0, 8)}@example.test`,
      phone: "(817) 555-0199",
      serviceType: "Game Console Repair",
      issue: "PS5: HDMI port loose, no picture",
      preferredDate: "2026-11-24",
      preferredTime: "10:00",
      startsAt: new Date("2026-11-24T16:00:00Z"),
      ...fields,
    })
    .returning();
  return row!;
}
