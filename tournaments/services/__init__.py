"""Tournament services, from the bottom up (docs/tournaments.md):

- ``registration``: creating a tournament, entering (with a partner or alone), accepting,
  withdrawing before the start;
- ``rounds``: starting (registration closes, solos are paired, teams seeded), opening each
  round's pairings and matches, advancing when a round is complete, finishing;
- ``results``: a tournament match's end recorded on its pairing; no-shows, deadlines and
  withdrawals mid-round decided;
- ``staff``: cancelling, disqualifying and replacing a team, logged for moderators.

Lock order: a tournament row, then (in their own transactions) match rows. A match's end
(under its match lock) updates only its pairing row and asks, after commit, for the
tournament to advance; nothing takes a tournament lock while holding a match lock.
"""
