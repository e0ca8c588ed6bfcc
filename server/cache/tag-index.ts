/**
 * Which cache keys carry which tags, both ways, so that everything tagged with something can be dropped at
 * once and a key leaving its cache leaves every tag it carried.
 */
export class TagIndex {
  private readonly byTag = new Map<string, Set<string>>();
  private readonly byKey = new Map<string, Set<string>>();

  /** Adds `tags` to those `key` carries. */
  tag(key: string, tags: Iterable<string>): void {
    let own = this.byKey.get(key);
    for (const tag of tags) {
      if (!own) this.byKey.set(key, (own = new Set()));
      if (own.has(tag)) continue;
      own.add(tag);
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  /** The tags `key` carries. */
  tagsOf(key: string): string[] {
    return [...(this.byKey.get(key) ?? [])];
  }

  /** Forgets a key (it left its cache). */
  untag(key: string): void {
    const tags = this.byKey.get(key);
    if (!tags) return;
    this.byKey.delete(key);
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }

  /** The keys carrying `tag`, forgotten here: the caller drops them from its cache. */
  take(tag: string): string[] {
    const keys = [...(this.byTag.get(tag) ?? [])];
    for (const key of keys) this.untag(key);
    return keys;
  }
}
