/**
 * The custom fetch orval's generated calls go through (its documented way to add a base URL and
 * credentials): what any app using orval's fetch client writes once.
 */
let base = '';
let authorization = '';

export function configure(baseUrl: string, key: string): void {
  base = baseUrl;
  authorization = `Basic ${btoa(`${key}:`)}`;
}

export async function customFetch<T>(url: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Authorization', authorization);
  const res = await fetch(`${base}${url}`, { ...init, headers });
  const text = await res.text();
  return { data: text ? JSON.parse(text) : undefined, status: res.status, headers: res.headers } as T;
}
