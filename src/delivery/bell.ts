/**
 * The bell another replica's owed delivery rings: on PostgreSQL the change feed rings it at each
 * `learnables_deliveries_owed` notice (migration 016), and the server's dispatcher listens, so it
 * sends at once what it would otherwise find on its next poll. Without PostgreSQL nobody rings it.
 */
export interface DeliveryBell {
  ring(): void;
  listen(wake: () => void): void;
}

export function createDeliveryBell(): DeliveryBell {
  const listeners: (() => void)[] = [];
  return {
    ring() {
      for (const wake of listeners) wake();
    },
    listen(wake) {
      listeners.push(wake);
    },
  };
}
