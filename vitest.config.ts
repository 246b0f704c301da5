import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // `concord serve` processes the tests start keep the readable log lines their banners are
    // parsed from; the tests of the JSON logs pass --log-format json (decision 0158).
    env: { CONCORD_LOG_FORMAT: 'pretty' },
  },
});
