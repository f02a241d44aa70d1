/**
 * A binary min-heap of timers keyed by due time, with lazy deletion for cancel.
 *
 * - `schedule` is O(log n); `cancel` is O(1) (the slot is marked dead and skipped when it reaches the top);
 * - `popDue(now)` pops every live timer with `due <= now` in `(due, schedule order)` order — ties break by the
 *   order of scheduling, so draining is deterministic;
 * - dead slots are compacted away when they outnumber live ones, so memory stays proportional to live timers.
 *
 * Storage is struct-of-arrays (`Float64Array` due times, `Uint32Array` sequence numbers) so a million armed
 * timers cost a few tens of megabytes and no per-timer object besides the caller's value.
 */
export class TimerHeap<T> {
  #due = new Float64Array(1024);
  #seq = new Uint32Array(1024);
  #slot = new Int32Array(1024); // heap position -> slot id
  #size = 0;
  #values: (T | undefined)[] = [];
  #alive: boolean[] = [];
  #free: number[] = [];
  #nextSeq = 0;
  #live = 0;

  /** Number of live (scheduled, not cancelled, not popped) timers. */
  get size(): number {
    return this.#live;
  }

  /** Schedule `value` at `due` (epoch ms); returns a handle for `cancel`. */
  schedule(due: number, value: T): number {
    const id = this.#free.pop() ?? this.#values.length;
    this.#values[id] = value;
    this.#alive[id] = true;
    this.#live++;
    if (this.#size === this.#due.length) this.#grow();
    let i = this.#size++;
    const seq = this.#nextSeq++ >>> 0;
    // sift up
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.#due[p]! < due || (this.#due[p]! === due && this.#seq[p]! <= seq)) break;
      this.#due[i] = this.#due[p]!;
      this.#seq[i] = this.#seq[p]!;
      this.#slot[i] = this.#slot[p]!;
      i = p;
    }
    this.#due[i] = due;
    this.#seq[i] = seq;
    this.#slot[i] = id;
    return id;
  }

  /** Cancel a scheduled timer (lazy: O(1)); returns false when it already fired or was cancelled. */
  cancel(handle: number): boolean {
    if (this.#alive[handle] !== true) return false;
    this.#alive[handle] = false;
    this.#values[handle] = undefined;
    this.#live--;
    if (this.#size > 1024 && this.#live * 2 < this.#size) this.#compact();
    return true;
  }

  /** The value of a scheduled timer (not cancelled, not popped), or undefined. */
  valueAt(handle: number): T | undefined {
    return this.#alive[handle] === true ? this.#values[handle] : undefined;
  }

  /** Due time of the earliest live timer, or undefined. */
  peekDue(): number | undefined {
    this.#dropDeadTop();
    return this.#size > 0 ? this.#due[0] : undefined;
  }

  /** Pop every live timer with `due <= now`, in due order. */
  popDue(now: number): T[] {
    const out: T[] = [];
    for (;;) {
      this.#dropDeadTop();
      if (this.#size === 0 || this.#due[0]! > now) return out;
      const id = this.#slot[0]!;
      out.push(this.#values[id] as T);
      this.#alive[id] = false;
      this.#values[id] = undefined;
      this.#free.push(id);
      this.#live--;
      this.#removeTop();
    }
  }

  #dropDeadTop(): void {
    while (this.#size > 0 && this.#alive[this.#slot[0]!] !== true) {
      this.#free.push(this.#slot[0]!);
      this.#removeTop();
    }
  }

  /** Move the last element to the root and sift it down (the heap shrinks by one). */
  #removeTop(): void {
    const last = --this.#size;
    if (last === 0) return;
    this.#due[0] = this.#due[last]!;
    this.#seq[0] = this.#seq[last]!;
    this.#slot[0] = this.#slot[last]!;
    this.#siftDown(0);
  }

  #grow(): void {
    const n = this.#due.length * 2;
    const d = new Float64Array(n);
    d.set(this.#due);
    const s = new Uint32Array(n);
    s.set(this.#seq);
    const sl = new Int32Array(n);
    sl.set(this.#slot);
    this.#due = d;
    this.#seq = s;
    this.#slot = sl;
  }

  /** Rebuild the heap from live slots only (Floyd heapify, O(n)). */
  #compact(): void {
    let w = 0;
    for (let r = 0; r < this.#size; r++) {
      const id = this.#slot[r]!;
      if (this.#alive[id] === true) {
        this.#due[w] = this.#due[r]!;
        this.#seq[w] = this.#seq[r]!;
        this.#slot[w] = id;
        w++;
      } else this.#free.push(id);
    }
    this.#size = w;
    for (let i = (w >> 1) - 1; i >= 0; i--) this.#siftDown(i);
  }

  #siftDown(i: number): void {
    const due = this.#due[i]!;
    const seq = this.#seq[i]!;
    const slot = this.#slot[i]!;
    const n = this.#size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && (this.#due[r]! < this.#due[l]! || (this.#due[r] === this.#due[l] && this.#seq[r]! < this.#seq[l]!))) c = r;
      if (due < this.#due[c]! || (due === this.#due[c] && seq <= this.#seq[c]!)) break;
      this.#due[i] = this.#due[c]!;
      this.#seq[i] = this.#seq[c]!;
      this.#slot[i] = this.#slot[c]!;
      i = c;
    }
    this.#due[i] = due;
    this.#seq[i] = seq;
    this.#slot[i] = slot;
  }
}
