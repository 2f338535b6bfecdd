// Run before each of the console's test files. A worker keeps its loaded modules from one file to the next
// (vitest.config.ts): a global a file stubbed (localStorage, window) is put back when that file ends, so that the
// worker's next file sees the real one.
import { afterAll, vi } from 'vitest';

afterAll(() => vi.unstubAllGlobals());
