import { expect } from 'vitest';

/**
 * The service's web pages (spec §5) driven over plain HTTP, the way a browser would: cookies carried by hand,
 * forms read from the HTML, no redirects followed.
 */

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) =>
    ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[name]!);
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)="([^"]*)"/g)) found[match[1]!] = unescapeHtml(match[2]!);
  return found;
}

export interface ParsedForm {
  attrs: Record<string, string>;
  /** Hidden inputs, name → value. */
  hidden: Record<string, string>;
  buttons: Array<Record<string, string>>;
}

export function formsOf(page: string): ParsedForm[] {
  return [...page.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => {
    const hidden: Record<string, string> = {};
    for (const input of match[2]!.matchAll(/<input\b[^>]*>/g)) {
      const attrs = attributes(input[0]);
      if (attrs.type === 'hidden' && attrs.name) hidden[attrs.name] = attrs.value ?? '';
    }
    const buttons = [...match[2]!.matchAll(/<button\b[^>]*>/g)].map((button) => attributes(button[0]));
    return { attrs: attributes(match[1]!), hidden, buttons };
  });
}

export function onlyForm(page: string): ParsedForm {
  const forms = formsOf(page);
  expect(forms, `expected exactly one form in the page:\n${page.slice(0, 600)}`).toHaveLength(1);
  return forms[0]!;
}

/** A browser reduced to what the flow needs: a cookie jar, GET and form POST, no redirects followed. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly origin: string) {}

  private absorb(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((attr) => /^\s*max-age=0\s*$/i.test(attr) || /^\s*expires=.*1970/i.test(attr));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {};
  }

  async get(path: string): Promise<Response> {
    return this.absorb(await fetch(new URL(path, this.origin), { redirect: 'manual', headers: this.cookieHeader() }));
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    return this.absorb(await fetch(new URL(path, this.origin), {
      method: 'POST',
      redirect: 'manual',
      headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }));
  }

  /** Submits a form read from a page, as a click on the given button would. */
  async submit(form: ParsedForm, extra: Record<string, string> = {}): Promise<Response> {
    return this.post(form.attrs.action!, { ...form.hidden, ...extra });
  }
}

/** The address of the service's authorization page for an application (spec §5.2). */
export function authorizePath(query: Record<string, string>, application = 'design-sync'): string {
  return `/integrations/${application}/authorized_integrations/new?${new URLSearchParams(query)}`;
}

/** GET a page that needs a session, sign in on the sign-in page it shows, and come back to it. Returns the page shown after sign-in. */
export async function signInThrough(browser: Browser, path: string, screenName: string, password: string): Promise<Response> {
  const signIn = await browser.get(path);
  expect(signIn.status).toBe(200);
  const form = onlyForm(await signIn.text());
  expect(form.attrs.action, 'the first page should be the sign-in form').toBe('/users/sign_in');
  const back = await browser.submit(form, { screen_name: screenName, password });
  expect(back.status, `signing in as ${screenName}`).toBe(303);
  expect(back.headers.get('location')).toBe(path);
  return browser.get(path);
}
