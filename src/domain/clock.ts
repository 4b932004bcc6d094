/** The domain's only source of time, so tests and replays can fix it. */
export interface Clock {
  /** Current time as an ISO-8601 string in UTC. */
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
