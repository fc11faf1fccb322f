import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { ServiceDatabase } from '../database/open-database';
import type { UserRow } from '../database/rows';
import { uniqueSlug } from './slugs';

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(user: Pick<UserRow, 'password_hash'>, password: string): boolean {
  const [scheme, saltHex, hashHex] = user.password_hash.split('$');
  if (scheme !== 'scrypt' || !saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  return timingSafeEqual(expected, scryptSync(password, Buffer.from(saltHex, 'hex'), expected.length));
}

export interface NewUser {
  screenName: string;
  password: string;
  realName?: string;
  email?: string;
  about?: string;
  location?: string;
  url?: string;
  skills?: string[];
  now: number;
}

export function createUser(db: ServiceDatabase, user: NewUser): UserRow {
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO users (screen_name, slug, real_name, name, email, password_hash, about, location, url, skills, email_token, created_at, updated_at)
       VALUES (@screen_name, @slug, @real_name, @name, @email, @password_hash, @about, @location, @url, @skills, @email_token, @now, @now)`,
    )
    .run({
      screen_name: user.screenName,
      slug: uniqueSlug(db, 'users', user.screenName, 'user'),
      real_name: user.realName ?? user.screenName,
      name: user.realName ?? user.screenName,
      email: user.email ?? `${user.screenName.toLowerCase()}@example.test`,
      password_hash: hashPassword(user.password),
      about: user.about ?? '',
      location: user.location ?? '',
      url: user.url ?? '',
      skills: JSON.stringify(user.skills ?? []),
      email_token: randomBytes(16).toString('hex'),
      now: user.now,
    });
  return db.prepare('SELECT * FROM users WHERE id = ?').get(Number(lastInsertRowid)) as UserRow;
}

export function findUserByScreenName(db: ServiceDatabase, screenName: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE screen_name = ?').get(screenName) as UserRow | undefined;
}
