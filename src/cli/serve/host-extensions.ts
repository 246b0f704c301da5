/**
 * The A2A extensions `concord serve` offers agents (decision 0054): an agent definition enables one
 * by name under `extensions`. The host itself knows none; this list is where built-in extensions
 * are registered.
 */
import { aumpHostExtension } from '../../extensions/aump/index.js';
import type { HostExtension } from '../../host/index.js';

/** The built-in extensions, by name: `aump` (AUMP user mandates). */
export const HOST_EXTENSIONS: readonly HostExtension[] = [aumpHostExtension()];
