/**
 * The round-robin balancer (scripts/round-robin.ts) in a worker thread of the benchmark: its own event loop, so the
 * load generator's and the balancer's work do not queue behind each other. Posts `{ url }` once listening, and the
 * per-target request counts when told `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { roundRobin } from '../../scripts/round-robin.ts';

const proxy = await roundRobin(workerData as string[]);
parentPort!.postMessage({ url: proxy.url });
parentPort!.on('message', async (m: string) => {
  if (m !== 'close') return;
  const counts = [...proxy.counts];
  await proxy.close();
  parentPort!.postMessage({ counts });
  process.exit(0);
});
