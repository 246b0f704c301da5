// The greeter's handler: a code agent written as for `createA2AServer` (see the main README).
export const executor = {
  async execute(context, updater) {
    const name = context.message.parts.find((part) => part.text !== undefined)?.text ?? 'you';
    updater.addArtifact([{ text: `Hello, ${name}!` }]);
    updater.complete();
  },
};
