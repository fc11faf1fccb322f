import type { WritableDB } from './cache-database';
import { prepared } from './prepared';
import { writeSearchRow } from './search-rows';

export interface LocalDesignEdit {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
}

/**
 * An edit made here that waits to be sent (the service was unreachable): the cached design shows it at once (its
 * columns, search row and stored forms), and the forms' dates are forgotten, so that the service's next answer for
 * this design is written whatever its date (the edit sent, or refused and read again). False when it is not cached.
 */
export function applyLocalDesignEdit(db: WritableDB, id: number, edit: LocalDesignEdit): boolean {
  const fields = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined));
  return db.transaction((): boolean => {
    const row = prepared(db, 'SELECT list_json, user_form_json FROM designs WHERE id = ?').get(id) as { list_json: string | null; user_form_json: string | null } | undefined;
    if (!row) return false;
    const patched = (json: string | null) => (json === null ? null : JSON.stringify({ ...(JSON.parse(json) as Record<string, unknown>), ...fields }));
    prepared(db,
      `UPDATE designs SET name = coalesce(@name, name), excerpt = coalesce(@excerpt, excerpt), license = coalesce(@license, license),
         list_json = @list, user_form_json = @user, list_updated_at = NULL, user_form_updated_at = NULL WHERE id = @id`,
    ).run({
      id, name: edit.name ?? null, excerpt: edit.excerpt ?? null, license: edit.license ?? null,
      list: patched(row.list_json), user: patched(row.user_form_json),
    });
    writeSearchRow(db, id);
    return true;
  })();
}
