// The researcher: answers `research.query` (the only thing its gate lets through) with a summary,
// at most `maxSources` sources and a confidence, as its output schema says.
const LIBRARY = [
  'https://a2a-protocol.org',
  'https://json-schema.org',
  'https://www.rfc-editor.org/rfc/rfc8785',
  'https://arxiv.org',
];

export const executor = {
  async execute(context, updater) {
    const { topic, maxSources = 2 } = context.contract.payload;
    const sources = LIBRARY.slice(0, maxSources);
    updater.addArtifact([
      {
        data: {
          summary: `Findings on ${topic}: ${sources.length} sources agree.`,
          sources,
          confidence: sources.length > 0 ? 0.8 : 0.1,
        },
      },
    ]);
    updater.complete();
  },
};
