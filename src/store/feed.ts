/** A feed: listeners hear every item, synchronously, in the order they subscribed (the store's changes). */
export class Feed<T> {
  private listeners: ((item: T) => void)[] = [];

  /** Adds a listener; answers how to remove it. */
  subscribe(listener: (item: T) => void): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((known) => known !== listener);
    };
  }

  publish(item: T): void {
    for (const listener of this.listeners) listener(item);
  }
}
