import type { TRandom } from './random.ts';

/** A set with O(1) add, delete and uniform random pick, in a deterministic order. */
export class IndexedSet {
  private readonly items: string[] = [];
  private readonly positions = new Map<string, number>();

  get size(): number {
    return this.items.length;
  }

  add(item: string): void {
    if (this.positions.has(item)) return;
    this.positions.set(item, this.items.length);
    this.items.push(item);
  }

  delete(item: string): void {
    const position = this.positions.get(item);
    if (position === undefined) return;
    const last = this.items.pop() as string;
    this.positions.delete(item);
    if (last !== item) {
      this.items[position] = last;
      this.positions.set(last, position);
    }
  }

  pick(random: TRandom): string | undefined {
    return this.items.length === 0 ? undefined : random.pick(this.items);
  }
}
