/**
 * Menu aim: a shopper who opened one category's panel and moves the mouse diagonally down into it often crosses
 * a neighbouring category on the way. While the pointer heads into the open panel, that neighbour must not take
 * the panel over; once the pointer rests on it (or turns away from the panel), it does.
 */

/** Product decision: how long a crossed category waits before it opens, when the pointer was heading into the panel. */
export const MENU_AIM_DELAY_MS = 250;
/** Slack in pixels around the panel's top edge, so a path grazing its corner still counts as heading in. */
const AIM_SLACK_PX = 8;

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  left: number;
  right: number;
  top: number;
}

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/**
 * Whether the pointer, moving from `from` to `to`, is heading into `panel` (which lies below the triggers):
 * `to` is inside the triangle of `from` and the panel's two top corners, the area a straight path from `from`
 * into the panel sweeps. A pointer that did not move, moved up, or is already past the panel's top is not
 * heading in.
 */
export function headingInto(from: Point, to: Point, panel: Box): boolean {
  if (to.y <= from.y || from.y >= panel.top) return false;
  const left = { x: panel.left - AIM_SLACK_PX, y: panel.top + AIM_SLACK_PX };
  const right = { x: panel.right + AIM_SLACK_PX, y: panel.top + AIM_SLACK_PX };
  const d1 = cross(from, left, to);
  const d2 = cross(left, right, to);
  const d3 = cross(right, from, to);
  const negative = d1 < 0 || d2 < 0 || d3 < 0;
  const positive = d1 > 0 || d2 > 0 || d3 > 0;
  return !(negative && positive);
}
