import type { GeoFilter } from '../../../shared/schemas/search.js';
import { cellOf, coveringCells, haversineMiles, latitudeSpan } from './geo.js';
import { packLists, SlotList, unpackLists } from './slot-list.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';

/** One distinct point and the slots that hold it (a venue, and every performer playing there). */
class Point {
  constructor(
    readonly key: string,
    readonly lat: number,
    readonly lng: number,
    readonly slots: SlotList,
  ) {}
}

/**
 * The documents of a point field (one point, or a list of them such as a performer's venues) by distinct point,
 * with the points in a 1° grid. A radius query measures each point near it once, however many documents hold
 * it, and visits the documents of the points in range with their distance: a performer's distance is the least
 * over its venues in range, and there are a few thousand venues but tens of thousands of performers. A change
 * of one document touches only its own points.
 */
export class PointIndex {
  private readonly points = new Map<string, Point>();
  private readonly grid = new Map<string, Set<Point>>();

  /** Files `slot` under each of its points. */
  add(slot: number, points: readonly (readonly [number, number])[]): void {
    for (const [lat, lng] of points) this.pointAt(lat, lng).slots.insert(slot);
  }

  /** Takes `slot` from the points it was filed under. */
  remove(slot: number, points: readonly (readonly [number, number])[]): void {
    for (const [lat, lng] of points) {
      const point = this.points.get(keyOf(lat, lng));
      if (!point) continue;
      point.slots.remove(slot);
      if (point.slots.length === 0) {
        this.points.delete(point.key);
        this.grid.get(cellOf(lat, lng))?.delete(point);
      }
    }
  }

  /**
   * Calls `visit` with the slots and distance of every point within the radius (inclusive), in no set order;
   * a slot holding several such points is visited once per point. Returns how many slots were visited.
   */
  within(geo: GeoFilter, visit: (slots: Int32Array, length: number, miles: number) => void): number {
    const latSpan = latitudeSpan(geo.radiusMiles);
    let visited = 0;
    const test = (point: Point) => {
      if (Math.abs(point.lat - geo.lat) > latSpan) return;
      const miles = haversineMiles(geo.lat, geo.lng, point.lat, point.lng);
      if (!(miles <= geo.radiusMiles)) return;
      visited += point.slots.length;
      visit(point.slots.data, point.slots.length, miles);
    };
    const cells = coveringCells(geo);
    if (cells) {
      for (const cell of cells) for (const point of this.grid.get(cell) ?? []) test(point);
    } else for (const point of this.points.values()) test(point);
    return visited;
  }

  snapshot(writer: SnapshotWriter): unknown {
    const all = [...this.points.values()];
    return {
      lat: writer.array(Float64Array.from(all, (p) => p.lat)),
      lng: writer.array(Float64Array.from(all, (p) => p.lng)),
      slots: packLists(
        all.map((p) => p.slots),
        writer,
      ),
    };
  }

  restore(tree: unknown, reader: SnapshotReader): void {
    if (!tree) throw new SnapshotError('the snapshot lacks a point index');
    const state = tree as { lat: unknown; lng: unknown; slots: unknown };
    const lat = reader.array(state.lat, Float64Array);
    const lng = reader.array(state.lng, Float64Array);
    const lists = unpackLists(state.slots, reader);
    if (lat.length !== lists.length || lng.length !== lists.length)
      throw new SnapshotError('the snapshot has a point index of unequal length');
    lists.forEach((slots, i) => {
      if (!slots) throw new SnapshotError('the snapshot has a point no document holds');
      this.register(new Point(keyOf(lat[i]!, lng[i]!), lat[i]!, lng[i]!, slots));
    });
  }

  private pointAt(lat: number, lng: number): Point {
    const key = keyOf(lat, lng);
    return this.points.get(key) ?? this.register(new Point(key, lat, lng, new SlotList(1)));
  }

  private register(point: Point): Point {
    this.points.set(point.key, point);
    const cell = cellOf(point.lat, point.lng);
    let set = this.grid.get(cell);
    if (!set) this.grid.set(cell, (set = new Set()));
    set.add(point);
    return point;
  }
}

const keyOf = (lat: number, lng: number) => `${lat},${lng}`;
