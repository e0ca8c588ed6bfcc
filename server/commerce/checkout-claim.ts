/**
 * How long one checkout may keep a cart to itself (the processor's timeout and the store's, with room):
 * meanwhile another checkout of the cart is told it is in progress, and the hold does not expire under it.
 */
export const CHECKOUT_CLAIM_SECONDS = 60;

/** The oldest claim still live at `now`: a checkout that claimed its cart after this may still write its order. */
export const liveClaimsSince = (now: Date) => new Date(now.getTime() - CHECKOUT_CLAIM_SECONDS * 1000).toISOString();
