/**
 * The reference host as the benchmarks start it: exactly `npm start` (runtime/host/main.ts, its flags and
 * environment), plus the SIGUSR2 report of report-signal.ts. Started by child-host.ts.
 */
import './report-signal.ts';
import '../../runtime/host/main.ts';
