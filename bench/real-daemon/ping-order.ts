/**
 * The order the ping timer pings its guests in each round: a shuffle of its
 * own per round, the same for every run (seeded by the round), so no guest
 * always follows the same one. A guest's ping waits on what the one before
 * left behind (its work after its answer, the model server's last request),
 * and with one fixed order that cost fell on the same guest every time.
 */

/** A small seeded generator (Park and Miller's minimal standard): enough to shuffle a handful of guests. */
const seeded = (seed: number) => {
  const modulus = 2_147_483_647;
  let state = (seed % (modulus - 1)) + 1;
  const step = () => {
    state = (state * 48_271) % modulus;
  };
  // Nearby seeds start nearby: a few steps first spread them.
  for (let index = 0; index < 4; index += 1) step();
  return () => {
    step();
    return (state - 1) / (modulus - 1);
  };
};

/** The indices 0…count-1 in round `round`'s order. */
export const pingOrder = (count: number, round: number): number[] => {
  const order = Array.from({ length: count }, (_, index) => index);
  const next = seeded(round + 1);
  for (let index = count - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
};
harden(pingOrder);
