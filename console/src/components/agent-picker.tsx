/** The agent select every page that is about one agent shows. */
import type { ListedAgent } from '../api/host';
import { href } from '../route';

/** An agent select; the choice goes to `onChange`. */
export function AgentPicker({
  agents,
  value,
  onChange,
}: {
  agents: ListedAgent[];
  value: string | undefined;
  onChange: (id: string) => void;
}) {
  return (
    <label>
      Agent
      <select value={value ?? ''} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} ({a.id})
          </option>
        ))}
      </select>
    </label>
  );
}

/** Picks the agent a page is about; the choice goes into the fragment, so it can be linked to. */
export function AgentSelect({ agents, value, page }: { agents: ListedAgent[]; value: string; page: string }) {
  return (
    <form class="toolbar" onSubmit={(event) => event.preventDefault()}>
      <AgentPicker agents={agents} value={value} onChange={(id) => (location.hash = href(page, id))} />
    </form>
  );
}
