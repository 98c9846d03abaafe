import { QUEUES } from '../../jobs/queue.ts';
import type { TRuntime } from '../../runtime.ts';
import type { TSyncJob } from './sync-bookings.ts';

/**
 * Queues a sync of the brand. The queue is "stately" with the brand as singleton key: at most one
 * run per brand at a time and one waiting behind it, however often "sync now" is pressed.
 */
export async function enqueueSync(rt: TRuntime, job: TSyncJob): Promise<void> {
  await rt.queue.send(QUEUES.bookingSync, job, { singletonKey: job.brandId });
}
