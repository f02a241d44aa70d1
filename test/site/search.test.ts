/**
 * Search placement (site/src/lib/search-sections.ts): which index and section every page goes to. The ranking it
 * produces is checked through the real search dialog in reader.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { routeOf } from '../../site/src/integrations/secondary-search.ts';
import { OVERVIEW_TEXT_WEIGHT, searchPlacement } from '../../site/src/lib/search-sections.ts';

const overview = (url: string) => ['/api/', '/api/wopkit/host/', '/api/wopkit/runtime/interfaces/'].includes(url);

describe('search placement', () => {
  it('keeps the spec, the RFCs and the protocol schemas in the main index at Pagefind\'s own weights', () => {
    for (const id of ['', 'spec', 'spec/inquirium', 'rfcs', 'rfcs/p066', 'schemas', 'schemas/openwop/memory-entry']) {
      expect(searchPlacement(id, overview), id).toEqual({ section: expect.any(String), index: 'main' });
    }
    expect(searchPlacement('spec/inquirium', overview).section).toBe('Spec');
    expect(searchPlacement('rfcs/0068', overview).section).toBe('RFC');
  });

  it('keeps the API overviews and the HTTP reference in the main index, and sends API entries, host seams and data pages to the second', () => {
    expect(searchPlacement('api/wopkit/host', overview)).toEqual({ section: 'API', index: 'main', textWeight: OVERVIEW_TEXT_WEIGHT });
    expect(searchPlacement('api', overview)).toMatchObject({ section: 'API', index: 'main' });
    expect(searchPlacement('http-api', overview)).toMatchObject({ section: 'API', index: 'main' });
    expect(searchPlacement('api/wopkit/host/interfaces/openstoreoptions', overview)).toEqual({ section: 'API', index: 'secondary' });
    expect(searchPlacement('schemas/openwop/host-sample-memory-seed-request', overview)).toEqual({ section: 'Schema', index: 'secondary' });
    for (const id of ['diagrams', 'interop', 'benchmarks', 'widgets', 'playground', 'changelog', 'other-languages']) expect(searchPlacement(id, overview), id).toEqual({ section: 'Tools and results', index: 'secondary' });
  });

  it('names a built page by its route', () => {
    expect(routeOf('/d', '/d/api/wopkit/host/index.html')).toEqual({ id: 'api/wopkit/host', url: '/api/wopkit/host/' });
    expect(routeOf('/d', '/d/index.html')).toEqual({ id: '', url: '/' });
  });
});
