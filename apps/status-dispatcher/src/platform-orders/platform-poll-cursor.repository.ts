import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** `platform_poll_cursors`: per polled integration, up to when (epoch ms) its platform's changes were read, and the last poll's error. */
@Injectable()
export class PlatformPollCursorRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The integration's cursor (epoch ms); undefined before its first poll. */
  async cursorOf(integrationId: string): Promise<number | undefined> {
    const [row]: Array<{ cursor_ms: string }> = await this.dataSource.query('SELECT cursor_ms FROM platform_poll_cursors WHERE integration_id = $1', [integrationId]);
    return row ? Number(row.cursor_ms) : undefined;
  }

  /** Stores the cursor and the poll's error (null: it went through). */
  async save(integrationId: string, cursorMs: number, error: string | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO platform_poll_cursors (integration_id, cursor_ms, polled_at, last_error) VALUES ($1, $2, now(), $3)
       ON CONFLICT (integration_id) DO UPDATE SET cursor_ms = EXCLUDED.cursor_ms, polled_at = now(), last_error = EXCLUDED.last_error, updated_at = now()`,
      [integrationId, Math.floor(cursorMs), error],
    );
  }
}
