// The reviewer: findings without sources are not approved.
export const executor = {
  async execute(context, updater) {
    const { sources = [] } = context.contract?.payload ?? {};
    const verdict = sources.length > 0 ? 'approved' : 'needs sources';
    updater.addArtifact([{ data: { verdict, checkedSources: sources.length } }]);
    updater.complete();
  },
};
