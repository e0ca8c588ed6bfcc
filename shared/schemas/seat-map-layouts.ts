import type { LayoutName } from './seating.js';
import {
  feature,
  numberedSections,
  pathOf,
  polar,
  rectFeature,
  rectPath,
  rectSection,
  ringSections,
  ringZone,
  shapeSection,
  wedge,
  zone,
  type Builder,
  type Pt,
} from './seat-map-drawing.js';

const BOWL = { cx: 500, cy: 380, sx: 1.35 };
const ARENA = { cx: 500, cy: 370, sx: 1.5 };
const FULL = { from: 0, to: 360 };

/** How each layout's seat map is drawn, and its size. */
export const SEAT_MAP_BUILDERS: Record<LayoutName, (b: Builder) => { width: number; height: number }> = {
  stadium(b) {
    rectFeature(b, 'field', 'Field', 370, 315, 260, 130);
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 150), {
      ...BOWL,
      ...FULL,
      inner: 130,
      outer: 185,
    });
    ringZone(b, 'club', 'Club Level', numberedSections('Club ', 201, 240), {
      ...BOWL,
      ...FULL,
      inner: 190,
      outer: 215,
    });
    ringZone(b, 'mezzanine', 'Mezzanine', numberedSections('Mezzanine ', 201, 250), {
      ...BOWL,
      ...FULL,
      inner: 220,
      outer: 262,
    });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Upper Level ', 301, 350), {
      ...BOWL,
      ...FULL,
      inner: 268,
      outer: 325,
    });
    return { width: 1000, height: 760 };
  },
  ballpark(b) {
    // Home plate at the centre; the stands wrap from the right-field line behind home plate to the left-field line.
    const home = { cx: 500, cy: 430 };
    const [lx, ly] = polar(home.cx, home.cy, 320, -45, 1);
    const [rx, ry] = polar(home.cx, home.cy, 320, 45, 1);
    const [cfx, cfy] = polar(home.cx, home.cy, 330, 0, 1);
    feature(
      b,
      'field',
      'Field',
      pathOf([
        [home.cx, home.cy],
        [rx, ry],
        [cfx + 110, cfy + 15],
        [cfx, cfy],
        [cfx - 110, cfy + 15],
        [lx, ly],
      ]),
      home.cx,
      home.cy - 170,
    );
    const stands = { ...home, from: 45, to: 315 };
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 150), { ...stands, inner: 110, outer: 170 });
    ringZone(b, 'club', 'Club Level', numberedSections('Club ', 201, 240), { ...stands, inner: 175, outer: 200 });
    ringZone(b, 'mezzanine', 'Mezzanine', numberedSections('Mezzanine ', 201, 250), {
      ...stands,
      inner: 205,
      outer: 250,
    });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Upper Level ', 301, 350), {
      ...stands,
      inner: 255,
      outer: 315,
    });
    return { width: 1000, height: 760 };
  },
  'stadium-concert'(b) {
    rectFeature(b, 'stage', 'Stage', 420, 300, 160, 28);
    rectSection(b, 'Pit', 'Pit', 420, 334, 160, 28);
    zone(b, 'pit', 'Pit', ['Pit']);
    const floors = ['Floor A', 'Floor B', 'Floor C', 'Floor D', 'Floor E', 'Floor F'];
    zone(b, 'floor', 'Floor', floors);
    floors.forEach((name, i) =>
      rectSection(b, 'Floor', name, 362 + (i % 3) * 93, 368 + Math.floor(i / 3) * 48, 90, 45),
    );
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 150), {
      ...BOWL,
      ...FULL,
      inner: 150,
      outer: 215,
    });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Upper Level ', 301, 350), {
      ...BOWL,
      ...FULL,
      inner: 228,
      outer: 325,
    });
    return { width: 1000, height: 760 };
  },
  'arena-sports'(b) {
    rectFeature(b, 'rink', 'Ice', 390, 320, 220, 100);
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 124), {
      ...ARENA,
      ...FULL,
      inner: 100,
      outer: 160,
    });
    ringZone(b, 'club', 'Club', ['Club Level', 'Lower Level Club'], { ...ARENA, ...FULL, inner: 165, outer: 185 });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Section ', 201, 232), {
      ...ARENA,
      ...FULL,
      inner: 190,
      outer: 250,
    });
    return { width: 1000, height: 740 };
  },
  court(b) {
    rectFeature(b, 'court', 'Court', 390, 320, 220, 100);
    rectSection(b, 'Courtside', 'Courtside', 390, 302, 220, 14, false);
    b.sections[b.sections.length - 1]!.d += rectPath(390, 424, 220, 14);
    zone(b, 'courtside', 'Courtside', ['Courtside']);
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 124), {
      ...ARENA,
      ...FULL,
      inner: 100,
      outer: 160,
    });
    ringZone(b, 'club', 'Club', ['Club Level'], { ...ARENA, from: -90, to: 270, inner: 165, outer: 185 });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Section ', 201, 232), {
      ...ARENA,
      ...FULL,
      inner: 190,
      outer: 250,
    });
    return { width: 1000, height: 740 };
  },
  'arena-concert'(b) {
    rectFeature(b, 'stage', 'Stage', 390, 318, 40, 104);
    const floors = ['Floor A', 'Floor B', 'Floor C', 'Floor D'];
    zone(b, 'floor', 'Floor', floors);
    floors.forEach((name, i) =>
      rectSection(b, 'Floor', name, 438 + Math.floor(i / 2) * 88, 318 + (i % 2) * 53, 84, 50),
    );
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 124), {
      ...ARENA,
      ...FULL,
      inner: 100,
      outer: 160,
    });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Section ', 201, 232), {
      ...ARENA,
      ...FULL,
      inner: 170,
      outer: 240,
    });
    return { width: 1000, height: 740 };
  },
  fight(b) {
    rectFeature(b, 'ring', 'Ring', 450, 320, 100, 100);
    shapeSection(
      b,
      'Ringside',
      'Ringside',
      `${rectPath(420, 290, 160, 160)}${rectPath(444, 314, 112, 112)}`,
      500,
      302,
      false,
    );
    zone(b, 'ringside', 'Ringside', ['Ringside']);
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 124), {
      ...ARENA,
      ...FULL,
      inner: 120,
      outer: 175,
    });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Section ', 201, 232), {
      ...ARENA,
      ...FULL,
      inner: 185,
      outer: 245,
    });
    return { width: 1000, height: 740 };
  },
  theater(b) {
    // The house fans out from the stage; house left is the audience's left, on the left of the map.
    const house = { cx: 500, cy: 50, from: 125, to: 235 };
    rectFeature(b, 'stage', 'Stage', 380, 20, 240, 60);
    zone(b, 'orchestra', 'Orchestra', ['Orchestra', 'Orchestra Left', 'Orchestra Center', 'Orchestra Right']);
    ringSections(b, 'Orchestra', ['Orchestra'], { ...house, inner: 95, outer: 150 });
    ringSections(b, 'Orchestra', ['Orchestra Right', 'Orchestra Center', 'Orchestra Left'], {
      ...house,
      inner: 155,
      outer: 265,
    });
    ringZone(b, 'front-mezzanine', 'Front Mezzanine', ['Front Mezzanine'], { ...house, inner: 285, outer: 320 });
    // Mezzanine and Rear Mezzanine are bands one behind the other.
    zone(b, 'mezzanine', 'Mezzanine', ['Mezzanine', 'Rear Mezzanine']);
    ringSections(b, 'Mezzanine', ['Mezzanine'], { ...house, inner: 325, outer: 360 });
    ringSections(b, 'Mezzanine', ['Rear Mezzanine'], { ...house, inner: 365, outer: 400 });
    ringZone(b, 'balcony', 'Balcony', ['Balcony'], { ...house, inner: 420, outer: 500 });
    for (const s of b.sections) s.roomy = true;
    return { width: 1000, height: 580 };
  },
  amphitheater(b) {
    const bowl = { cx: 500, cy: 50, from: 120, to: 240 };
    rectFeature(b, 'stage', 'Stage', 400, 20, 200, 50);
    ringZone(b, 'pit', 'Pit', ['Pit'], { ...bowl, inner: 60, outer: 100 });
    ringZone(b, 'lower', 'Lower Level', numberedSections('Section ', 101, 106), { ...bowl, inner: 110, outer: 220 });
    ringZone(b, 'upper', 'Upper Level', numberedSections('Section ', 201, 210), { ...bowl, inner: 230, outer: 330 });
    ringZone(b, 'lawn', 'Lawn', ['Lawn'], { ...bowl, from: 110, to: 250, inner: 350, outer: 480 });
    for (const s of b.sections) s.roomy = s.name === 'Lawn' || s.name === 'Pit';
    return { width: 1000, height: 560 };
  },
  club(b) {
    rectFeature(b, 'stage', 'Stage', 330, 40, 340, 60);
    zone(b, 'ga', 'General Admission', ['General Admission']);
    rectSection(b, 'General Admission', 'General Admission', 260, 120, 480, 330);
    zone(b, 'vip', 'VIP', ['VIP Balcony', 'VIP Mezzanine']);
    rectSection(b, 'VIP', 'VIP Balcony', 260, 470, 480, 70);
    shapeSection(
      b,
      'VIP',
      'VIP Mezzanine',
      `${rectPath(170, 120, 70, 330)}${rectPath(760, 120, 70, 330)}`,
      205,
      285,
      false,
      'VIP Mezz.',
    );
    return { width: 1000, height: 580 };
  },
  festival(b) {
    rectFeature(b, 'stage', 'Main stage', 400, 30, 200, 50);
    zone(b, 'ga', 'General Admission', ['General Admission']);
    zone(b, 'ga-plus', 'GA+', ['GA+']);
    zone(b, 'vip', 'VIP', ['VIP']);
    shapeSection(
      b,
      'GA+',
      'GA+',
      pathOf([
        [340, 100],
        [660, 100],
        [690, 220],
        [310, 220],
      ]),
      500,
      160,
    );
    shapeSection(
      b,
      'General Admission',
      'General Admission',
      pathOf([
        [310, 220],
        [690, 220],
        [800, 540],
        [200, 540],
      ]),
      500,
      390,
    );
    rectSection(b, 'VIP', 'VIP', 730, 100, 190, 140);
    return { width: 1000, height: 580 };
  },
  speedway(b) {
    // The oval: two straights joined by turns; the turns' centres are at x 300 and 700.
    const oval = (r: number) => {
      const pts: Pt[] = [];
      for (let a = 0; a <= 180; a += 10) pts.push(polar(700, 300, r, a, 1));
      for (let a = 180; a <= 360; a += 10) pts.push(polar(300, 300, r, a, 1));
      return pathOf(pts);
    };
    feature(b, 'track', 'Track', `${oval(170)}${oval(120)}`, 500, 155);
    zone(b, 'infield', 'Infield', ['Infield']);
    shapeSection(b, 'Infield', 'Infield', oval(112), 500, 300);
    zone(b, 'backstretch', 'Backstretch grandstands', ['Grandstand A', 'Grandstand B', 'Grandstand C']);
    ['Grandstand A', 'Grandstand B', 'Grandstand C'].forEach((name, i) =>
      rectSection(b, 'Backstretch grandstands', name, 300 + i * 136, 60, 130, 55),
    );
    zone(b, 'frontstretch', 'Frontstretch grandstands', [
      'Start/Finish Grandstand',
      'Turn 1 Grandstand',
      'Turn 4 Grandstand',
    ]);
    rectSection(b, 'Frontstretch grandstands', 'Start/Finish Grandstand', 330, 485, 340, 60);
    const turn1 = wedge({ cx: 700, cy: 300, inner: 180, outer: 235, from: 100, to: 160 }, 100, 160);
    shapeSection(
      b,
      'Frontstretch grandstands',
      'Turn 1 Grandstand',
      turn1.d,
      turn1.labelX,
      turn1.labelY,
      true,
      'Turn 1',
    );
    const turn4 = wedge({ cx: 300, cy: 300, inner: 180, outer: 235, from: 200, to: 260 }, 200, 260);
    shapeSection(
      b,
      'Frontstretch grandstands',
      'Turn 4 Grandstand',
      turn4.d,
      turn4.labelX,
      turn4.labelY,
      true,
      'Turn 4',
    );
    return { width: 1000, height: 580 };
  },
  grounds(b) {
    zone(b, 'grounds', 'Grounds', ['Grounds Pass']);
    shapeSection(
      b,
      'Grounds',
      'Grounds Pass',
      pathOf([
        [60, 80],
        [700, 40],
        [940, 200],
        [900, 520],
        [420, 540],
        [80, 440],
      ]),
      300,
      300,
    );
    feature(
      b,
      'green',
      '18th green',
      pathOf([
        [600, 300],
        [680, 280],
        [720, 330],
        [660, 370],
        [600, 350],
      ]),
      660,
      325,
    );
    zone(b, 'hospitality', 'Hospitality', ['Clubhouse Pavilion', '18th Green Skybox']);
    rectSection(b, 'Hospitality', 'Clubhouse Pavilion', 560, 410, 200, 80);
    rectSection(b, 'Hospitality', '18th Green Skybox', 740, 250, 140, 80);
    return { width: 1000, height: 580 };
  },
};
