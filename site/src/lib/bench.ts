/** Every `bench/results/*.json` (benchmark output, written by `npm run bench`), as the benchmarks page shows it. */
import { benchViews as viewsOf } from './bench-model';

export const benchViews = viewsOf(import.meta.glob<Record<string, never>>('../../../bench/results/*.json', { eager: true, import: 'default' }));
