/**
 * Script text for tests that run the built package in a child node (V8 flags such as
 * `--allow-natives-syntax` or `--trace-gc-nvp`): declares `server`, an A2AServer of the echo agent
 * (one artifact, then completed) over a `store` the script declared before it.
 */
export function childEchoServer(dist: string): string {
  return `
const { createA2AServer } = await import('${dist}/server/index.js');
const server = createA2AServer({
  agentCard: { name: 'echo', description: 'echo', version: '1.0.0', capabilities: {},
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'echo', description: 'echo', tags: [] }] },
  executor: { async execute(ctx, updater) {
    updater.addArtifact([{ text: 'echo: ' + ctx.message.parts[0].text }]);
    updater.complete();
  } },
  store,
});
`;
}
