import type { PerformerDocument } from '../schemas/documents.js';
import type { PerformerKind } from '../schemas/entities.js';
import { CATEGORY_BY_SLUG } from '../catalog/categories.js';

/**
 * What kind of act a performer is, for the event page's structured data (schema.org SportsTeam or
 * PerformingGroup). A performer whose category the taxonomy schedules as a league (NFL, MLB, NBA, NHL, MLS:
 * home games between the league's teams) is a team; every other performer is a group. The performer document
 * has no field telling a solo artist from a band (`custom_label` only marks top performers, and
 * parent/child/grandchild name the genre), so no performer is claimed to be one person: an act of unknown
 * make-up is a group, which schema.org's PerformingGroup covers.
 */
export function performerKind(doc: Pick<PerformerDocument, 'category'>): PerformerKind {
  return CATEGORY_BY_SLUG.get(doc.category)?.schedule === 'league' ? 'team' : 'group';
}
