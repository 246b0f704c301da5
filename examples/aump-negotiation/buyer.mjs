// The buyer (the seed's BuyerAgent), following the AUMP runtime pattern for every offer it makes:
// the offer is evaluated under the buyer's mandate first; only an allowed offer is sent, carrying
// the mandate's reference (id, hash, version: never the mandate), and its A2A messageId goes into
// the buyer's evidence. A denied offer (over budget) or one that needs the principal's review is
// not sent at all. The user asks: {"listing": "<listing id>", "seller": "<seller agent URL>"},
// optionally with "offer_minor" (an opening offer below the listed price) and "confidence" (0..1).
import { AUMP, dataOf, listings, money } from './listings.mjs';

const MANDATE = 'aump_mnd_demo_buyer_001';
const EVIDENCE = { sent: 'offer_sent', denied: 'deal_denied', escalated: 'escalation_requested' };

export const executor = {
  async execute(context, updater) {
    const aump = context.extensions.get(AUMP);
    const request = dataOf(context.message) ?? {};
    const listing = listings[request.listing];
    if (listing === undefined || typeof request.seller !== 'string') {
      updater.reject(
        `Send {"listing": "<id>", "seller": "<seller agent URL>"}; listings: ${Object.keys(listings).join(', ')}`,
      );
      return;
    }
    const rounds = aump.mandate(MANDATE).negotiation.max_rounds;
    let price =
      typeof request.offer_minor === 'number'
        ? { currency: listing.price.currency, total_minor: request.offer_minor }
        : listing.price;
    for (let round = 1; round <= rounds; round++) {
      updater.startWork(`Round ${round}: offering ${money(price)} for ${listing.title}`);
      const outcome = await aump.send(request.seller, {
        mandateId: MANDATE,
        action: {
          type: 'make_offer',
          summary: `Offer ${money(price)} for ${listing.title}.`,
          counterparty: listing.seller_id,
          amount: price,
          downstream_refs: [{ protocol: 'marketplace', id: listing.id }],
        },
        ...(request.confidence === undefined ? {} : { context: { confidence: request.confidence } }),
        message: {
          contextId: context.contextId,
          parts: [
            { text: `I can offer ${money(price)} for ${listing.title}.` },
            { data: { listing_id: listing.id, offer: price } },
          ],
        },
        evidence: EVIDENCE,
      });
      if (!outcome.sent) {
        const { decision, reason_codes: reasons } = outcome.evaluation;
        const text = `Offer of ${money(price)} not sent: ${decision} (${reasons.join(', ')}).`;
        const data = { data: { listing_id: listing.id, decision: outcome.evaluation } };
        if (decision === 'requires_escalation')
          updater.requireInput([{ text: `${text} Please review.` }, data]);
        else updater.reject([{ text }, data]);
        return;
      }
      const answer = outcome.response.task?.status.message;
      const reply = dataOf(answer);
      if (reply?.status === 'accepted') {
        const close = {
          type: 'accept_deal',
          summary: `Accept ${listing.title} for ${money(reply.price)}.`,
          counterparty: listing.seller_id,
          amount: reply.price,
        };
        const decision = aump.evaluate(MANDATE, close);
        const event = await aump.record(MANDATE, {
          eventType: decision.decision === 'allowed' ? 'deal_accepted' : 'deal_denied',
          summary: close.summary,
          result: decision.decision,
          action: close,
          reasonCodes: decision.reason_codes,
          downstreamRefs: [
            { protocol: 'a2a', id: answer.messageId },
            { protocol: 'marketplace', id: listing.id },
          ],
        });
        updater.addArtifact(
          [
            { text: `Bought ${listing.title} for ${money(reply.price)}.` },
            { data: { listing_id: listing.id, price: reply.price, evidence_id: event?.id } },
          ],
          { name: 'deal' },
        );
        updater.complete();
        return;
      }
      if (reply?.status !== 'counteroffer') {
        updater.fail(
          `The seller did not answer the offer: ${JSON.stringify(answer?.parts ?? outcome.response)}`,
        );
        return;
      }
      await aump.record(MANDATE, {
        eventType: 'counteroffer_received',
        summary: `The seller countered at ${money(reply.price)}.`,
        result: 'received',
        downstreamRefs: [{ protocol: 'a2a', id: answer.messageId }],
      });
      price = reply.price;
    }
    updater.reject(`No deal for ${listing.title} within ${rounds} rounds.`);
  },
};
