// The seller (the seed's SellerAgent): it only ever sees messages the AUMP extension has already
// checked — a tampered mandate hash or an embedded mandate is refused before this code runs, and
// the accepted offer is already in the seller's evidence (offer_received, with the A2A messageId).
// It answers an offer at or above the listed price with a deal, anything lower with a counteroffer
// at the listed price, each evaluated under its own mandate, recorded, and sent with its own
// mandate reference (never the mandate).
import { AUMP, dataOf, listings, money } from './listings.mjs';

const MANDATE = 'aump_mnd_demo_seller_001';

export const executor = {
  async execute(context, updater) {
    const aump = context.extensions.get(AUMP);
    const buyerRef = context.message.metadata?.[AUMP];
    if (buyerRef === undefined) {
      updater.reject(
        'I negotiate only with buyers acting under an AUMP mandate: activate the extension and attach your mandate reference.',
      );
      return;
    }
    const offer = dataOf(context.message);
    const listing = listings[offer?.listing_id];
    if (listing === undefined || offer?.offer?.total_minor === undefined) {
      updater.reject(
        `Send {"listing_id", "offer": {"currency", "total_minor"}}; I sell: ${Object.keys(listings).join(', ')}`,
      );
      return;
    }
    const accepted =
      offer.offer.currency === listing.price.currency && offer.offer.total_minor >= listing.price.total_minor;
    const price = accepted ? offer.offer : listing.price;
    const action = accepted
      ? {
          type: 'accept_deal',
          summary: `Sell ${listing.title} for ${money(price)}.`,
          counterparty: buyerRef.mandate_id,
          amount: price,
        }
      : {
          type: 'make_counteroffer',
          summary: `Counter at ${money(price)} for ${listing.title}.`,
          counterparty: buyerRef.mandate_id,
        };
    const decision = aump.evaluate(MANDATE, action);
    if (decision.decision !== 'allowed') {
      updater.requireInput(`My owner has to review this first (${decision.reason_codes.join(', ')}).`);
      return;
    }
    await aump.record(MANDATE, {
      eventType: accepted ? 'deal_accepted' : 'counteroffer_sent',
      summary: action.summary,
      result: 'allowed',
      action,
      downstreamRefs: [
        { protocol: 'a2a', id: context.message.messageId },
        { protocol: 'marketplace', id: listing.id },
      ],
    });
    const reply = aump.a2aMessage(MANDATE, {
      role: 'agent',
      taskId: updater.taskId,
      contextId: updater.contextId,
      parts: [
        { text: accepted ? `Deal: ${listing.title} for ${money(price)}.` : `I can do ${money(price)}.` },
        { data: { listing_id: listing.id, status: accepted ? 'accepted' : 'counteroffer', price } },
      ],
    });
    updater.complete(reply.message);
  },
};
