import { RecentActivityItemSchema, type RecentActivityItem } from '../../shared/schemas/activity.js';
import type { Sql, SqlTx } from '../store/sql.js';

/** How many recent views a guest sees, and how many are kept per guest. */
export const RECENT_ACTIVITY_SHOWN = 20;
export const RECENT_ACTIVITY_KEPT = 50;

export { RecentActivityItemSchema, type RecentActivityItem };

/** The performers and events a guest opened most recently, newest first, bounded per guest. */
export class RecentActivity {
  constructor(private readonly sql: Sql) {}

  async record(guestId: string, item: Omit<RecentActivityItem, 'viewedAt'>, at = new Date()): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO recent_activity (guest_id, entity_type, entity_id, name, ` +
          `url, image, viewed_at)
         SELECT $1::text, $2::text, $3::bigint, $4::text, $5::text, $6::text, $7::timestamptz
         WHERE NOT EXISTS (SELECT 1 FROM guest_privacy WHERE guest_id = $1 AND erased_at IS NOT NULL)
     ` +
          `    ON CONFLICT (guest_id, entity_type, entity_id)
         DO UPDATE ` +
          `SET name = EXCLUDED.name, url = EXCLUDED.url, image = EXCLUDED.image, ` +
          `viewed_at = EXCLUDED.viewed_at`,
        [guestId, item.type, item.id, item.name, item.url, item.image, at.toISOString()],
      );
      await tx.query(
        `DELETE FROM recent_activity WHERE guest_id = $1 AND (entity_type, entity_id) IN (
           SELECT entity_type, entity_id FROM recent_activity WHERE guest_id = $1
           ORDER BY viewed_at DESC, entity_type, entity_id OFFSET $2)`,
        [guestId, RECENT_ACTIVITY_KEPT],
      );
    });
  }

  /** RULES 21.3: forgets everything a guest viewed, inside the caller's transaction; says how many views went. */
  static async erase(db: SqlTx, guestId: string): Promise<number> {
    return (await db.query('DELETE FROM recent_activity WHERE guest_id = $1 RETURNING 1', [guestId])).length;
  }

  async list(guestId: string, limit = RECENT_ACTIVITY_SHOWN): Promise<RecentActivityItem[]> {
    const rows = await this.sql.query<{
      entity_type: 'performer' | 'event';
      entity_id: string | number;
      name: string;
      url: string;
      image: string | null;
      viewed_at: Date | string;
    }>(
      `SELECT entity_type, entity_id, name, url, image, viewed_at FROM recent_activity
       WHERE guest_id = $1 ORDER BY viewed_at DESC, entity_type, entity_id LIMIT $2`,
      [guestId, limit],
    );
    return rows.map((r) => ({
      type: r.entity_type,
      id: Number(r.entity_id),
      name: r.name,
      url: r.url,
      image: r.image,
      viewedAt: new Date(r.viewed_at).toISOString(),
    }));
  }
}
