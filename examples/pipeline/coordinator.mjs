// The coordinator: takes a question in plain text, asks the researcher under `research.query`
// (the researcher accepts nothing else), has the reviewer check the findings under
// `review.findings`, and answers with both. `context.agents.send` runs each target's contract
// gate first: a payload the target's schema refuses comes back as an error, not a delivery.
function dataOf(response) {
  const task = response.task;
  if (task === undefined || task.status.state !== 'TASK_STATE_COMPLETED') {
    throw new Error(`the agent did not complete: ${JSON.stringify(task?.status ?? response)}`);
  }
  return task.artifacts?.[0]?.parts.find((part) => part.data !== undefined)?.data;
}

export const executor = {
  async execute(context, updater) {
    const question = context.message.parts
      .map((part) => part.text ?? '')
      .join(' ')
      .trim();
    // "topic | n" asks for at most n sources; anything after the bar is passed on as given.
    const [topic, limit] = question.split('|').map((s) => s.trim());
    updater.startWork('Asking the researcher');
    let research;
    try {
      const payload = {
        topic,
        ...(limit === undefined ? {} : { maxSources: /^\d+$/.test(limit) ? Number(limit) : limit }),
      };
      research = dataOf(
        await context.agents.send('researcher', {
          contract: 'research.query',
          payload,
          correlationId: context.taskId,
        }),
      );
    } catch (error) {
      updater.fail(`The researcher refused the request: ${error.message}`);
      return;
    }
    updater.startWork('Asking the reviewer');
    const review = dataOf(
      await context.agents.send('reviewer', {
        contract: 'review.findings',
        payload: { findings: research.summary, sources: research.sources },
        correlationId: context.taskId,
      }),
    );
    updater.addArtifact(
      [{ data: { research, review } }, { text: `${research.summary} — reviewer: ${review.verdict}` }],
      {
        name: 'answer',
      },
    );
    updater.complete();
  },
};
