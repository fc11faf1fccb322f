import type { WritableDB } from './cache-database';
import { readStoredForm, storeForm, type FormColumns } from './compact-form';
import { FORM_COLUMNS } from './design-writes';
import { prepared } from './prepared';
import { writeSearchRow } from './search-rows';
import { engineLog } from '../log/engine-log';

export interface LocalDesignEdit {
  name?: string;
  excerpt?: string;
  license?: string;
  description?: string;
}

type FormsRow = FormColumns & { list_json: string | null; list_layout: number | null; user_form_json: string | null; user_form_layout: number | null };

/**
 * An edit made here that waits to be sent (the service was unreachable): the cached design shows it at once (its
 * columns, search row and stored forms), and the forms' dates are forgotten, so that the service's next answer for
 * this design is written whatever its date (the edit sent, or refused and read again). False when it is not cached.
 */
export function applyLocalDesignEdit(db: WritableDB, id: number, edit: LocalDesignEdit): boolean {
  const fields = Object.fromEntries(Object.entries(edit).filter(([, value]) => value !== undefined));
  return db.transaction((): boolean => {
    const row = prepared(db, `SELECT ${FORM_COLUMNS}, list_json, list_layout, user_form_json, user_form_layout FROM designs WHERE id = ?`).get(id) as FormsRow | undefined;
    if (!row) return false;
    const columns: FormColumns = { ...row, name: edit.name ?? row.name, excerpt: edit.excerpt ?? row.excerpt, license: edit.license ?? row.license };
    // Each stored form read whole beside the columns as they were, edited, and stored again beside the edited columns.
    const patched = (text: string | null, layout: number | null, form: string) => {
      if (text === null) return { text: null, layout: null };
      let whole: Record<string, unknown>;
      try {
        whole = readStoredForm(text, layout, row);
      } catch (error) {
        engineLog.warn('cache', `design ${id}'s stored ${form} form cannot be read; the edit is kept in its columns only`, error);
        return { text, layout };
      }
      return storeForm({ ...whole, ...fields }, columns);
    };
    const list = patched(row.list_json, row.list_layout, 'list');
    const user = patched(row.user_form_json, row.user_form_layout, 'user-designs');
    prepared(db,
      `UPDATE designs SET name = @name, excerpt = @excerpt, license = @license, list_json = @list, list_layout = @listLayout,
         user_form_json = @user, user_form_layout = @userLayout, list_updated_at = NULL, user_form_updated_at = NULL WHERE id = @id`,
    ).run({
      id, name: columns.name, excerpt: columns.excerpt, license: columns.license,
      list: list.text, listLayout: list.layout, user: user.text, userLayout: user.layout,
    });
    writeSearchRow(db, id);
    return true;
  })();
}
