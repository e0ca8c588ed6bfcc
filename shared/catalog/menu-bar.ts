/**
 * RULES 12.2, 12.4: the menu's categories in order. The header draws its bar from these alone, and the links
 * under each (the menu answer, `menu` in server/entities/entity-service.ts) load when a panel first opens.
 */
export const MENU_BAR: readonly { name: string; url?: string }[] = [
  { name: 'Sports', url: '/category/sports' },
  { name: 'Concerts', url: '/category/concerts' },
  { name: 'Theater', url: '/category/theater' },
  // Other has no page of its own.
  { name: 'Other' },
];
