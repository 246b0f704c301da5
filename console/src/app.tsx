/**
 * The console's frame (decision 0159): asks the host who the visitor is, shows the sign-in form
 * when the host wants credentials, else the navigation and the page the fragment names. Every
 * page gets the session and the agents this listener shows.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, onUnauthenticated } from './api/http';
import { getSession, listAgents, type ConsoleSession, type ListedAgent } from './api/host';
import { saveCredential } from './api/session';
import { ErrorNotice } from './components/common';
import { AgentsPage } from './pages/agents';
import { ApprovalsPage } from './pages/approvals';
import { EvidencePage } from './pages/evidence';
import { PushPage } from './pages/push';
import { SignIn } from './pages/sign-in';
import { TasksPage } from './pages/tasks';
import { TryItPage } from './pages/try-it';
import { href, useRoute, type Route } from './route';

/** What every page is given. */
export interface PageProps {
  session: ConsoleSession;
  agents: ListedAgent[];
  route: Route;
}

const PAGES: { name: string; title: string; component: ComponentType<PageProps> }[] = [
  { name: 'agents', title: 'Agents', component: AgentsPage },
  { name: 'try', title: 'Try it', component: TryItPage },
  { name: 'tasks', title: 'Tasks', component: TasksPage },
  { name: 'approvals', title: 'Approvals', component: ApprovalsPage },
  { name: 'evidence', title: 'Mandates', component: EvidencePage },
  { name: 'push', title: 'Push', component: PushPage },
];

type Phase =
  | { kind: 'loading' }
  | { kind: 'sign-in'; problem?: string }
  | { kind: 'ready'; session: ConsoleSession; agents: ListedAgent[] }
  | { kind: 'failed'; error: unknown };

export function App() {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const route = useRoute();

  const start = async (problem?: string) => {
    try {
      const session = await getSession();
      setPhase({ kind: 'ready', session, agents: await listAgents() });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        saveCredential(undefined);
        setPhase({ kind: 'sign-in', ...(problem === undefined ? {} : { problem }) });
      } else setPhase({ kind: 'failed', error });
    }
  };
  useEffect(() => {
    void start();
    return onUnauthenticated(() =>
      setPhase({ kind: 'sign-in', problem: 'The host asked for credentials again.' }),
    );
  }, []);

  const page = PAGES.find((p) => p.name === route.page) ?? PAGES[0]!;
  useEffect(() => {
    document.title = phase.kind === 'ready' ? `${page.title} · Concord Console` : 'Concord Console';
  }, [page, phase.kind]);

  if (phase.kind === 'loading') return <p role="status">Loading the Concord Console…</p>;
  if (phase.kind === 'failed') {
    return (
      <main id="main">
        <h1>Concord Console</h1>
        <ErrorNotice error={phase.error} />
      </main>
    );
  }
  if (phase.kind === 'sign-in') {
    return (
      <SignIn problem={phase.problem} onSignedIn={() => void start('Those credentials were not accepted.')} />
    );
  }
  const Page = page.component;
  const { session } = phase;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Concord Console</span>
        <nav aria-label="Console">
          <ul>
            {PAGES.map((p) => (
              <li key={p.name}>
                <a href={href(p.name)} aria-current={p.name === page.name ? 'page' : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.listener === 'internal' ? 'internal listener' : 'public listener'}
          {session.principal === null ? '' : ` · signed in as ${session.principal}`}
          {session.secured ? (
            <button
              type="button"
              class="link"
              onClick={() => {
                saveCredential(undefined);
                setPhase({ kind: 'sign-in' });
              }}
            >
              Sign out
            </button>
          ) : null}
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        <Page session={session} agents={phase.agents} route={route} />
      </main>
    </>
  );
}
