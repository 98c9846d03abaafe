import { registry } from '../metrics/metrics.ts';

/** A counter of this process's registry, summed over the series whose labels include `labels`. */
export async function counterValue(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  if (!metric) throw new Error(`no metric ${name}`);
  return metric.values
    .filter((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))
    .reduce((sum, v) => sum + v.value, 0);
}
