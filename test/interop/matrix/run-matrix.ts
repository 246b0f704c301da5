/**
 * Runs the operations table against the client rows and one server: one `describe` per client
 * row (`<client> <binding> <version>`), one `it` per operation, so a failing cell reads as
 * client / interface / operation. Operations a client does not offer (its row's `lacks`) and
 * ListTasks on 0.3 (which has none, A2A 0.3 §7) are not cells.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ClientRow, Driver } from './driver.js';
import { OPERATIONS } from './operations.js';
import type { RunningServer } from './servers.js';

export function runMatrix(title: string, rows: ClientRow[], start: () => Promise<RunningServer>): void {
  describe(title, () => {
    let server: RunningServer | undefined;
    beforeAll(async () => {
      server = await start();
    }, 30_000);
    afterAll(async () => {
      await server?.close();
    });

    describe.each(rows.map((row) => [`${row.client} ${row.binding} ${row.version}`, row] as const))(
      '%s',
      (_label, row) => {
        let driver: Driver | undefined;
        let connectError: unknown;
        beforeAll(async () => {
          // A client that cannot connect fails each of its cells with why, not the whole file.
          driver = await row.connect(server!).catch((error: unknown) => {
            connectError = error;
            return undefined;
          });
        }, 15_000);
        afterAll(async () => {
          await driver?.close();
        });
        const cells = OPERATIONS.filter(
          (op) =>
            (op.only10 !== true || row.version === '1.0') &&
            (op.needs ?? []).every((member) => row.lacks?.includes(member) !== true),
        );
        for (const op of cells) {
          it(op.name, { timeout: 10_000 }, async () => {
            if (driver === undefined) throw connectError;
            await op.run(driver, server!, row);
          });
        }
      },
    );
  });
}
