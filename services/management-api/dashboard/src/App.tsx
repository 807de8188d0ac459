import { useEffect, useRef, useState } from 'preact/hooks';
import { RelayApiError, messageOf, must, relay, session, useSessionToken } from './api';
import { Loading, Notice } from './components/ui';
import { abilitiesOf, roleTable } from './lib/roles';
import type { Abilities, RoleTable } from './lib/roles';
import { ActivityPage } from './pages/ActivityPage';
import { AlertsPage } from './pages/AlertsPage';
import { AuditPage } from './pages/AuditPage';
import { EndpointPage } from './pages/EndpointPage';
import { EndpointsPage } from './pages/EndpointsPage';
import { KeysPage } from './pages/KeysPage';
import { MembersPage } from './pages/MembersPage';
import { SignIn } from './pages/SignIn';
import { UsagePage } from './pages/UsagePage';
import { href, useRoute } from './router';
import type { Me } from './api';

/**
 * The main pages, each with the operation it reads: a page the role cannot read is neither in
 * the menu nor drawn when its address is typed.
 */
const PAGES = [
  { name: 'endpoints', label: 'Endpoints', reads: 'listEndpoints' },
  { name: 'activity', label: 'Request activity', reads: 'listActivity' },
  { name: 'alerts', label: 'Alerts', reads: 'listAlertRules' },
  { name: 'usage', label: 'Usage', reads: 'getUsageV1' },
  { name: 'audit', label: 'Audit history', reads: 'listAccountAudit' },
  { name: 'keys', label: 'API keys', reads: 'listApiKeys' },
  { name: 'members', label: 'Members', reads: 'listMembers' },
] as const;

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  // which role each operation needs, from the API's own document (lib/roles.ts)
  const [roles, setRoles] = useState<RoleTable | null>(null);
  const [rolesError, setRolesError] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
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
    must(relay.GET('/v1/openapi.json')).then(
      (doc) => setRoles(roleTable(doc as { paths: Record<string, Record<string, unknown>> })),
      (err) => setRolesError(messageOf(err)),
    );
  }, []);
  // a new page: move focus to its content, as a page load would; the phone menu closes
  useEffect(() => {
    main.current?.focus();
    setMenuOpen(false);
  }, [route.join('/')]);

  if (me === null) return <SignIn onSignedIn={signedIn} />;
  if (rolesError) return <Notice kind="error">The dashboard could not read the API's description: {rolesError}</Notice>;
  if (me === undefined || roles === null) return <Loading what="the dashboard" />;

  const can = abilitiesOf(me.role, roles);
  const section = route[0] ?? 'endpoints';
  const page = PAGES.find((p) => p.name === section) ?? PAGES[0];
  const signOut = async (): Promise<void> => {
    await session('DELETE').catch(() => undefined);
    setMe(null);
  };

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header class={`top${menuOpen ? ' top--open' : ''}`}>
        <span class="brand">Relay</span>
        <span class="top-page narrow-only" aria-hidden="true">
          {page.label}
        </span>
        <button
          type="button"
          class="menu-toggle narrow-only"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <div class="menu" id="main-menu">
          <nav aria-label="Main">
            {PAGES.filter((p) => can.may(p.reads)).map((p) => (
              <a
                key={p.name}
                href={href(p.name)}
                aria-current={section === p.name ? 'page' : undefined}
                onClick={() => setMenuOpen(false)}
              >
                {p.label}
              </a>
            ))}
          </nav>
          <div class="who">
            {me.member ? (
              <span title="Signed in with the account's identity provider">
                {me.member.email} <span class="badge">{me.role}</span>
              </span>
            ) : (
              <span title="The API key this session signed in with">
                <code>{me.key_prefix}…</code> <span class="badge">{me.role}</span>
              </span>
            )}
            <button type="button" class="secondary" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1} ref={main}>
        {!can.may(page.reads) ? (
          <NotAllowed label={page.label} role={me.role} needs={roles.get(page.reads) ?? 'admin'} />
        ) : section === 'endpoints' && route[1] ? (
          <EndpointPage id={route[1]} tab={route[2]} part={route[3]} can={can} />
        ) : (
          <PageOf name={page.name} me={me} can={can} />
        )}
      </main>
    </>
  );
}

function PageOf(props: { name: (typeof PAGES)[number]['name']; me: Me; can: Abilities }) {
  switch (props.name) {
    case 'activity':
      return <ActivityPage can={props.can} />;
    case 'alerts':
      return <AlertsPage can={props.can} />;
    case 'usage':
      return <UsagePage />;
    case 'audit':
      return <AuditPage />;
    case 'keys':
      return <KeysPage me={props.me} />;
    case 'members':
      return <MembersPage me={props.me} can={props.can} />;
    case 'endpoints':
      return <EndpointsPage can={props.can} />;
  }
}

const article = (word: string): string => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** A page typed into the address that the role cannot read: said so, with nothing to use under it. */
function NotAllowed(props: { label: string; role: string; needs: string }) {
  return (
    <section aria-labelledby="denied-title">
      <h1 id="denied-title">{props.label}</h1>
      <Notice kind="error">
        Not allowed: {article(props.role)} <strong>{props.role}</strong> key cannot see {props.label}. It needs{' '}
        {article(props.needs)} <strong>{props.needs}</strong> key or higher.
      </Notice>
      <p>
        <a href={href('endpoints')}>Back to the endpoints</a>
      </p>
    </section>
  );
}
