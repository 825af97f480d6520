/**
 * The stable id of the delivery of the event `seq` to a subscription: the same whether the
 * delivery is a record of its own or an entry of a batch, and across redeliveries.
 * @example webhookDeliveryId('whk_3f2a', 17) // 'whd_3f2a_17'
 */
export function webhookDeliveryId(subscriptionId: string, seq: number): string {
  return `whd_${subscriptionId.replace(/^whk_/, '')}_${seq}`
}

/**
 * The subscription and seq a delivery id names, or `undefined` for a string that is no delivery id.
 * @example parseWebhookDeliveryId('whd_3f2a_17') // { subscriptionId: 'whk_3f2a', seq: 17 }
 */
export function parseWebhookDeliveryId(id: string): { subscriptionId: string; seq: number } | undefined {
  const match = /^whd_(.+)_(\d{1,15})$/.exec(id)
  if (!match) return undefined
  return { subscriptionId: `whk_${match[1]}`, seq: Number(match[2]) }
}
