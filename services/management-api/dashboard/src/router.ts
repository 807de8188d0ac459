import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/endpoints/ep_…`): the server serves one page for `/` and never has to guess
 * which paths are the UI's and which the API's.
 */
export function useRoute(): string[] {
  const read = (): string[] =>
    location.hash.replace(/^#\/?/, '').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = (): void => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}
