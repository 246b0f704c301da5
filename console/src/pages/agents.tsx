/**
 * Agents: every agent this listener shows, and for the one chosen its card as each protocol
 * version serves it (A2A 1.0 §8; 0.3), its skills, media types, security schemes, extensions,
 * signature status checked against the host's keys, and its contracts with their versions and
 * deprecations (the contracts seed; `GET /agents/<id>/contracts`).
 */
import { useState } from 'preact/hooks';
import { getCard } from '../api/a2a';
import { getContracts, type ListedAgent } from '../api/host';
import type { PageProps } from '../app';
import { Json, Loaded, useLoad } from '../components/common';
import { signatureStatus } from '../components/signature';
import { href } from '../route';

export function AgentsPage({ agents, route }: PageProps) {
  const chosen = agents.find((a) => a.id === route.params[0]);
  return (
    <>
      <h1>Agents</h1>
      {agents.length === 0 ? (
        <p>This listener shows no agents.</p>
      ) : (
        <ul class="cards" aria-label="Agents">
          {agents.map((agent) => (
            <li key={agent.id} class={agent.id === chosen?.id ? 'card chosen' : 'card'}>
              <h2>
                <a
                  href={href('agents', agent.id)}
                  aria-current={agent.id === chosen?.id ? 'true' : undefined}
                >
                  {agent.name}
                </a>
              </h2>
              <p class="muted">
                <code>{agent.id}</code> · version {agent.version}
              </p>
              <p>{agent.description}</p>
              <AgentContractsSummary id={agent.id} />
            </li>
          ))}
        </ul>
      )}
      {chosen === undefined ? null : <AgentDetail key={chosen.id} agent={chosen} />}
    </>
  );
}

/** The contract names of an agent, on its tile. */
function AgentContractsSummary({ id }: { id: string }) {
  const contracts = useLoad(() => getContracts(id), [id]);
  if (contracts.value === undefined || contracts.value.contracts.length === 0) {
    return contracts.value === undefined ? null : <p class="muted">No contracts; free text.</p>;
  }
  return (
    <p>
      Contracts:{' '}
      {contracts.value.contracts.map((c, index) => (
        <span key={c.name}>
          {index === 0 ? '' : ', '}
          <code>{c.name}</code>
        </span>
      ))}
    </p>
  );
}

function AgentDetail({ agent }: { agent: ListedAgent }) {
  const [version, setVersion] = useState<'1.0' | '0.3'>('1.0');
  const card = useLoad(() => getCard(agent.id, version), [agent.id, version]);
  const contracts = useLoad(() => getContracts(agent.id), [agent.id]);
  return (
    <section aria-labelledby="agent-detail" class="detail">
      <h2 id="agent-detail">{agent.name}</h2>
      <p>
        <a href={href('try', agent.id)}>Try it</a> · <a href={href('tasks', agent.id)}>Tasks</a> ·{' '}
        <a href={href('approvals', agent.id)}>Approvals</a>
      </p>
      <h3>Contracts</h3>
      <Loaded state={contracts} what="the contracts">
        {(published) =>
          published.contracts.length === 0 ? (
            <p>No contracts: the agent takes free text.</p>
          ) : (
            <>
              <p class="muted">
                {published.allowFreeform
                  ? 'Free text is accepted too.'
                  : 'Only contract messages are accepted.'}
              </p>
              <table>
                <caption class="sr-only">Contracts of {agent.name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Contract</th>
                    <th scope="col">Version</th>
                    <th scope="col">Description</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {published.contracts.map((contract) => (
                    <tr key={contract.name}>
                      <th scope="row">
                        <a href={href('try', agent.id, { contract: contract.name })}>{contract.name}</a>
                      </th>
                      <td>{contract.version ?? '—'}</td>
                      <td>{contract.description ?? ''}</td>
                      <td>
                        {contract.deprecated === true ? (
                          <span class="badge warn">
                            deprecated
                            {contract.supersededBy === undefined ? '' : `, use ${contract.supersededBy}`}
                          </span>
                        ) : null}
                        {contract.requiresApproval === true ? (
                          <span class="badge">requires approval</span>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )
        }
      </Loaded>
      <h3>Card</h3>
      <div role="group" aria-label="Protocol version of the card">
        {(['1.0', '0.3'] as const).map((v) => (
          <button key={v} type="button" aria-pressed={version === v} onClick={() => setVersion(v)}>
            A2A {v}
          </button>
        ))}
      </div>
      <Loaded state={card} what="the card">
        {(value) => <CardView key={version} card={value} version={version} />}
      </Loaded>
    </section>
  );
}

function CardView({ card, version }: { card: Record<string, unknown>; version: '1.0' | '0.3' }) {
  const signature = useLoad(() => signatureStatus(card), [card]);
  const skills = (card.skills as { id: string; name: string; description?: string; tags?: string[] }[]) ?? [];
  const schemes = (card.securitySchemes as Record<string, unknown> | undefined) ?? {};
  const extensions =
    (card.capabilities as { extensions?: { uri: string; required?: boolean }[] } | undefined)?.extensions ??
    [];
  return (
    <>
      <dl class="facts">
        <dt>Signature</dt>
        <dd>
          {signature.value === undefined ? (
            'checking…'
          ) : signature.value.kind === 'verified' ? (
            <span class="badge ok">
              verified with {signature.value.kid} ({signature.value.alg})
            </span>
          ) : signature.value.kind === 'unsigned' ? (
            <span class="badge">unsigned</span>
          ) : (
            <span class="badge bad">not verified: {signature.value.reason}</span>
          )}
        </dd>
        <dt>Input modes</dt>
        <dd>{((card.defaultInputModes as string[]) ?? []).join(', ') || '—'}</dd>
        <dt>Output modes</dt>
        <dd>{((card.defaultOutputModes as string[]) ?? []).join(', ') || '—'}</dd>
        <dt>Security schemes</dt>
        <dd>{Object.keys(schemes).length === 0 ? 'none' : Object.keys(schemes).join(', ')}</dd>
        <dt>Extensions</dt>
        <dd>
          {extensions.length === 0 ? (
            'none'
          ) : (
            <ul>
              {extensions.map((e) => (
                <li key={e.uri}>
                  <code>{e.uri}</code>
                  {e.required === true ? ' (required)' : ''}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <h4>Skills</h4>
      <ul>
        {skills.map((skill) => (
          <li key={skill.id}>
            <strong>{skill.name}</strong> <code>{skill.id}</code>
            {skill.description === undefined ? '' : ` — ${skill.description}`}
          </li>
        ))}
      </ul>
      <details>
        <summary>The card as A2A {version} serves it</summary>
        <Json value={card} label={`Agent card, A2A ${version}`} />
      </details>
    </>
  );
}
