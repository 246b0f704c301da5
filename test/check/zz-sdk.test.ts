import { it } from 'vitest';
import { startSdkServer } from '../interop/helpers/sdk-server.js';
import { checkAgent, formatCheckReport } from '../../src/check/index.js';
it('run', async () => {
  const s = await startSdkServer();
  const report = await checkAgent(s.url, { allowPrivateNetworks: true, waitText: 'wait' });
  console.log(formatCheckReport(report));
  await s.close();
}, 120000);
