import { useEffect, useRef, useState } from 'preact/hooks';
import { RelayApiError, session, useSessionToken } from './api';
import { Loading } from './components/ui';
import { abilitiesOf } from './lib/roles';
import { ActivityPage } from './pages/ActivityPage';
import { AlertsPage } from './pages/AlertsPage';
import { EndpointPage } from './pages/EndpointPage';
import { EndpointsPage } from './pages/EndpointsPage';
import { KeysPage } from './pages/KeysPage';
import { SignIn } from './pages/SignIn';
import { UsagePage } from './pages/UsagePage';
import { href, useRoute } from './router';
import type { Me } from './api';

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const route = useRoute();
  const main = useRef<HTMLElement>(null);

  const signedIn = (who: Me): void => {
    useSessionToken(who.csrf_token, () => setMe(null));
    setMe(who);
  };
  useEffect(() => {
    session('GET').then(signedIn, (err: unknown) => {
      if (err instanceof RelayApiError && err.status === 401) setMe(null);
      else setMe(null);
    });
  }, []);
  // a new page: move focus to its content, as a page load would
  useEffect(() => {
    main.current?.focus();
  }, [route.join('/')]);

  if (me === undefined) return <Loading what="the dashboard" />;
  if (me === null) return <SignIn onSignedIn={signedIn} />;

  const can = abilitiesOf(me.role);
  const section = route[0] ?? 'endpoints';
  const signOut = async (): Promise<void> => {
    await session('DELETE').catch(() => undefined);
    setMe(null);
  };
  const link = (name: string, label: string) => (
    <a href={href(name)} aria-current={section === name ? 'page' : undefined}>
      {label}
    </a>
  );

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Relay</span>
        <nav aria-label="Main">
          {link('endpoints', 'Endpoints')}
          {link('activity', 'Request activity')}
          {link('alerts', 'Alerts')}
          {can.readUsage && link('usage', 'Usage')}
          {can.manageKeys && link('keys', 'API keys')}
        </nav>
        <div class="who">
          <span title="The API key this session signed in with">
            <code>{me.key_prefix}…</code> <span class="badge">{me.role}</span>
          </span>
          <button type="button" class="secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        {section === 'endpoints' && route[1] ? (
          <EndpointPage id={route[1]} tab={route[2]} can={can} />
        ) : section === 'activity' ? (
          <ActivityPage can={can} />
        ) : section === 'alerts' ? (
          <AlertsPage can={can} />
        ) : section === 'usage' ? (
          <UsagePage />
        ) : section === 'keys' ? (
          <KeysPage me={me} />
        ) : (
          <EndpointsPage can={can} />
        )}
      </main>
    </>
  );
}
