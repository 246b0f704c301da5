/**
 * Sign-in (decision 0159): the host's schemes, as its cards declare them, and a field for the
 * credential one of them takes — a bearer token (an OAuth or OpenID Connect access token is one
 * too) or an API key. The credential is checked by asking the host who it proves.
 */
import { useEffect, useState } from 'preact/hooks';
import { getSchemes } from '../api/host';
import { saveCredential, type ConsoleScheme } from '../api/session';
import { ErrorNotice } from '../components/common';

export function SignIn({ problem, onSignedIn }: { problem?: string | undefined; onSignedIn: () => void }) {
  const [schemes, setSchemes] = useState<ConsoleScheme[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [chosen, setChosen] = useState(0);
  const [value, setValue] = useState('');
  useEffect(() => {
    getSchemes().then(setSchemes, setError);
  }, []);
  const scheme = schemes?.[chosen];
  const submit = (event: Event) => {
    event.preventDefault();
    if (scheme === undefined || value.trim() === '') return;
    if (scheme.type === 'apiKey' && scheme.in === 'cookie') {
      document.cookie = `${encodeURIComponent(scheme.keyName ?? 'api_key')}=${encodeURIComponent(value.trim())}; path=/; SameSite=Strict`;
    }
    saveCredential({ scheme, value: value.trim() });
    setValue('');
    onSignedIn();
  };
  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the Concord Console</h1>
      <p>This host requires authentication. Sign in with a credential one of its security schemes accepts.</p>
      {problem === undefined ? null : (
        <p class="notice error" role="alert">
          {problem}
        </p>
      )}
      <ErrorNotice error={error} />
      {schemes === undefined ? null : (
        <form onSubmit={submit} aria-label="Sign in">
          {schemes.length > 1 ? (
            <label>
              Scheme
              <select
                value={chosen}
                onChange={(e) => setChosen(Number((e.target as HTMLSelectElement).value))}
              >
                {schemes.map((s, index) => (
                  <option key={s.name} value={index}>
                    {s.name} ({describe(s)})
                  </option>
                ))}
              </select>
            </label>
          ) : scheme === undefined ? null : (
            <p>
              Scheme: <strong>{scheme.name}</strong> ({describe(scheme)})
            </p>
          )}
          {scheme?.description === undefined ? null : <p class="muted">{scheme.description}</p>}
          <label>
            {scheme?.type === 'apiKey' ? 'API key' : 'Token'}
            <input
              type="password"
              autoComplete="off"
              value={value}
              onInput={(e) => setValue((e.target as HTMLInputElement).value)}
              required
            />
          </label>
          <button type="submit">Sign in</button>
        </form>
      )}
    </main>
  );
}

function describe(scheme: ConsoleScheme): string {
  if (scheme.type === 'http')
    return `HTTP ${scheme.scheme ?? 'bearer'}${scheme.bearerFormat === undefined ? '' : `, ${scheme.bearerFormat}`}`;
  return `API key in the ${scheme.in ?? 'header'} ${scheme.keyName ?? ''}`.trim();
}
